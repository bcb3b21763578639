import { describe, expect, it } from 'vitest';
import { ConnectionGuard, type GuardedConnection } from './connection-guard.js';
import { PublishAllowance, RateLimiter } from './limits.js';

describe('ConnectionGuard', () => {
  const guard = () => new ConnectionGuard({ connectionsPerUser: 2, unauthenticatedPerAddress: 2 });
  let addresses = 0;
  /** A new connection from an address of its own, so the per-address cap stays out of the way. */
  const open = (g: ConnectionGuard): GuardedConnection => {
    const connection = g.open(`10.1.0.${++addresses}`);
    if (!connection) throw new Error('refused');
    return connection;
  };

  it('counts connections not logged in per address until they log in or close', () => {
    const g = guard();
    const a = g.open('10.0.0.1');
    const b = g.open('10.0.0.1');
    if (!a || !b) throw new Error('refused');
    expect(g.open('10.0.0.1')).toBeUndefined();
    expect(g.open('10.0.0.2')).toBeDefined();
    expect(g.claim(a, 'id-a', 'user:alice', true)).toBe('ok');
    const c = g.open('10.0.0.1');
    expect(c).toBeDefined();
    g.close(b);
    expect(g.open('10.0.0.1')).toBeDefined();
    // Closing a logged-in connection twice frees nothing more.
    g.close(a);
    g.close(a);
    expect(g.open('10.0.0.1')).toBeUndefined();
  });

  it("refuses another owner's live id, lets the owner take it over, and frees it on close", () => {
    const g = guard();
    const first = open(g);
    expect(g.claim(first, 'tab', 'user:alice', true)).toBe('ok');
    expect(g.claim(open(g), 'tab', 'user:bob', true)).toBe('identifier-taken');
    expect(g.claim(open(g), 'tab', '$service', false)).toBe('identifier-taken');
    const again = open(g);
    expect(g.claim(again, 'tab', 'user:alice', true)).toBe('ok');
    expect(g.connectionsOf('user:alice')).toBe(1);
    // The replaced connection closing later does not free the id its successor holds.
    g.close(first);
    expect(g.claim(open(g), 'tab', 'user:bob', true)).toBe('identifier-taken');
    g.close(again);
    expect(g.claim(open(g), 'tab', 'user:bob', true)).toBe('ok');
  });

  it('caps connections per user, not for the service, and counts a takeover once', () => {
    const g = guard();
    expect(g.claim(open(g), 'a1', 'user:alice', true)).toBe('ok');
    expect(g.claim(open(g), 'a2', 'user:alice', true)).toBe('ok');
    expect(g.claim(open(g), 'a3', 'user:alice', true)).toBe('too-many-connections');
    expect(g.claim(open(g), 'a2', 'user:alice', true)).toBe('ok');
    for (let i = 0; i < 5; i++) expect(g.claim(open(g), `s${i}`, '$service', false)).toBe('ok');
  });
});

describe('PublishAllowance', () => {
  it('passes a burst, refuses beyond it, refills with time, and asks to disconnect a flood', () => {
    const allowance = new PublishAllowance({ publishPerSecond: 10, publishBurst: 2 });
    const t = Date.now();
    expect([allowance.check(t), allowance.check(t), allowance.check(t)]).toEqual([
      'pass',
      'pass',
      'refuse',
    ]);
    expect(allowance.check(t + 100)).toBe('pass');
    const verdicts = Array.from({ length: 5 }, () => allowance.check(t + 100));
    expect(verdicts).toEqual(['refuse', 'refuse', 'refuse', 'refuse', 'disconnect']);
  });

  it('never holds more than its burst', () => {
    const bucket = new RateLimiter(1000, 3, 0);
    const taken = Array.from({ length: 5 }, () => bucket.take(60_000)).filter(Boolean);
    expect(taken.length).toBe(3);
  });
});
