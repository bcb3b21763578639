import { describe, expect, it } from 'vitest';
import { mayPublish, maySubscribe, type Principal } from './access.js';

const alice: Principal = { kind: 'user', username: 'alice' };
const service: Principal = { kind: 'service' };

describe('broker access rules', () => {
  it('[A2] lets a user subscribe to their own query topics only', () => {
    expect(maySubscribe(alice, 'query/list-tag/user/alice')).toBe(true);
    expect(maySubscribe(alice, 'query/+/user/alice')).toBe(true);
    for (const topic of [
      'query/list-tag/user/bob',
      'query/list-tag/user/+',
      'query/list-tag/user/#',
      'query/#',
      '#',
      'query/+/+/alice',
      'query//user/alice',
      'query/list-tag/user/alice/extra',
      'command/list-tag/user/alice',
      '$SYS/#',
      'query/list-tag/user/alicex',
    ]) {
      expect(maySubscribe(alice, topic), topic).toBe(false);
    }
  });

  it('[A2] lets a user publish non-retained commands on their own topics only', () => {
    expect(mayPublish(alice, 'command/list-tag/user/alice', false)).toBe(true);
    expect(mayPublish(alice, 'command/list-tag/user/alice', true)).toBe(false);
    for (const topic of [
      'command/list-tag/user/bob',
      'query/list-tag/user/alice',
      'command/list-tag/user/alice/x',
      '$SYS/broker',
      'command//user/alice',
    ]) {
      expect(mayPublish(alice, topic, false), topic).toBe(false);
    }
  });

  it('lets the service principal do anything', () => {
    expect(maySubscribe(service, 'command/+/user/+')).toBe(true);
    expect(mayPublish(service, 'query/list-tag/user/bob', false)).toBe(true);
  });
});
