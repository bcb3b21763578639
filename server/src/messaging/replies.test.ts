import { errorText } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { serviceClientId } from './connection.js';
import { MAX_COMMAND_BYTES, readHead, refusalOf } from './replies.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('readHead', () => {
  it('reads the leading scalar fields of an object and stops at the first nested value', () => {
    expect(
      readHead(bytes('{ "user" : "alice", "transactionid":"t-1", "page": 1, "x": [1], "y": 2')),
    ).toEqual({
      user: 'alice',
      transactionid: 't-1',
      page: 1,
    });
    expect(readHead(bytes('{"a":"\\u00e9\\"q","b":true,"c":null,"d":-1.5e3}'))).toEqual({
      a: 'é"q',
      b: true,
      c: null,
      d: -1500,
    });
  });

  it('gives nothing for what is no object or breaks at once', () => {
    for (const text of [
      '',
      '[{"transactionid":"t"}]',
      '"transactionid"',
      '{transactionid:"t"}',
      '{"t',
    ])
      expect(readHead(bytes(text)), text).toEqual({});
    expect(readHead(Buffer.from([0xff, 0xfe]))).toEqual({});
  });

  it('reads only the head of a large payload and keeps prototype keys as plain data', () => {
    const big = bytes(`{"transactionid":"big","pad":"${'x'.repeat(100_000)}"}`);
    expect(readHead(big)).toEqual({ transactionid: 'big' });
    const proto = readHead(bytes('{"__proto__":"x","transactionid":"t"}'));
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(proto.transactionid).toBe('t');
  });
});

describe('refusalOf', () => {
  it("answers on the command's response topic in the spec's failure shape", () => {
    const payload = bytes(
      `{"transactionid":"t","user":"alice","pad":"${'x'.repeat(MAX_COMMAND_BYTES)}"}`,
    );
    expect(refusalOf('command/create-tag/user/alice', payload, 'nope')).toEqual({
      topic: 'query/status-tag/user/alice',
      payload: JSON.stringify({ transactionid: 't', user: 'alice', success: false, error: 'nope' }),
    });
    expect(refusalOf('command/create-tag/user/alice', bytes('{"user":"alice"}'), 'nope')).toBe(
      undefined,
    );
    expect(refusalOf('command/x/user/alice', bytes('{"transactionid":""}'), 'nope')).toBe(
      undefined,
    );
  });

  it('answers an HD order on its status topic when it names its id and image', () => {
    const order = bytes('{"id":"o1","user":"alice","image":"tile.png"}');
    expect(
      refusalOf('command/generate-image/user/alice', order, errorText('COMMANDS_TOO_FAST')),
    ).toEqual({
      topic: 'query/status-generate-image/user/alice',
      payload: JSON.stringify({
        id: 'o1',
        image: 'tile.png',
        status: 'error',
        percent: 0,
        error: errorText('COMMANDS_TOO_FAST'),
      }),
    });
    expect(refusalOf('command/generate-image/user/alice', bytes('{"id":"o1"}'), 'x')).toBe(
      undefined,
    );
  });
});

describe('serviceClientId', () => {
  it('[#12 defect 1] is 128 random bits, different at every call', () => {
    const ids = new Set(Array.from({ length: 100 }, serviceClientId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^tessera-service-[0-9a-f]{32}$/);
  });
});
