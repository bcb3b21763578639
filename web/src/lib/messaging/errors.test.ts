import { CONNECTION_ERROR_TEXTS } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { ConnectionProblemError, asConnectionProblem, connectionProblemText } from './errors';

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
