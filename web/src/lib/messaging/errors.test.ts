import {
  CONNECTION_ERROR_TEXTS,
  errorText,
  SHELL_TEXTS,
  SHELL_TEXTS_EN,
  shownErrorText,
} from '@tessera/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/locale';
import {
  CommandFailedError,
  ConnectionProblemError,
  InvalidResponseError,
  RequestCancelledError,
  asConnectionProblem,
  connectionProblemText,
} from './errors';

describe('connection problems in the words of SPEC §8 (issue 22, part 15)', () => {
  it.each([
    // mqtt.js 5's own texts (node_modules/mqtt/build/lib/client.js) and the spec's for each.
    ['connack timeout', 'connack timeout'],
    ['Keepalive timeout', 'keepalive timeout'],
    ['client disconnecting', 'client disconnecting'],
    ['Connection closed', 'Connection closed'],
    ['No connection to broker', 'No connection to broker'],
    ['Invalid topic query/list-tag/user/a+b', 'Invalid topic'],
  ])('mqtt.js %j reads %j', (said, spec) => {
    expect(connectionProblemText(said)).toBe(spec);
    const shown = asConnectionProblem(new Error(said));
    expect(shown.message).toBe(spec);
    expect(CONNECTION_ERROR_TEXTS).toContain(shown.message);
  });

  it("keeps mqtt.js's error when it already reads as the spec says, with it as the cause otherwise", () => {
    const same = new Error('client disconnecting');
    expect(asConnectionProblem(same)).toBe(same);
    const keepalive = new Error('Keepalive timeout');
    const shown = asConnectionProblem(keepalive);
    expect(shown).toBeInstanceOf(ConnectionProblemError);
    expect(shown.cause).toBe(keepalive);
  });

  it('leaves other errors as they are', () => {
    const refused = new Error('Connection refused: Not authorized');
    expect(connectionProblemText(refused.message)).toBeUndefined();
    expect(asConnectionProblem(refused)).toBe(refused);
    expect(connectionProblemText('Invalid topics')).toBeUndefined();
  });
});

describe("the client's own failures in the language shown (issue 30, part 5)", () => {
  afterEach(() => i18n.changeLanguage('es'));

  it('says them in Spanish by default and in English when chosen', async () => {
    const failures = () => [
      new RequestCancelledError().message,
      new CommandFailedError('list-tag', { transactionid: 't1', user: 'alice', success: false })
        .message,
      new InvalidResponseError('list-tag', new Error('shape')).message,
    ];
    expect(failures()).toEqual([
      SHELL_TEXTS.connection.closed,
      SHELL_TEXTS.connection.requestFailed('list-tag'),
      SHELL_TEXTS.unexpectedAnswer,
    ]);
    await i18n.changeLanguage('en');
    expect(failures()).toEqual([
      SHELL_TEXTS_EN.connection.closed,
      SHELL_TEXTS_EN.connection.requestFailed('list-tag'),
      SHELL_TEXTS_EN.unexpectedAnswer,
    ]);
  });

  it("shows the server's refusal in Spanish, as it was sent in English", async () => {
    const sent = errorText('TAG_NOT_FOUND', 'piedra');
    const refused = new CommandFailedError('assign-tag', {
      transactionid: 't1',
      user: 'alice',
      success: false,
      error: sent,
    });
    expect(refused.message).toBe(shownErrorText('es', 'TAG_NOT_FOUND', 'piedra'));
    expect(refused.message).not.toBe(sent);
    await i18n.changeLanguage('en');
    expect(new CommandFailedError('assign-tag', refused.response).message).toBe(sent);
  });
});
