import { describe, expect, it } from 'vitest';
import { ConnectionGuard, type GuardedConnection } from './connection-guard.js';
import { REFUSAL_ANSWERS } from '../limits/user-budget.js';
import { RateLimiter } from './limits.js';
import { MAX_CHARGED_CONNECTIONS, PublishBudget } from './publish-budget.js';

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

describe('PublishBudget (issue 22, part 4)', () => {
  it("shares one budget among a user's connections, charged by bytes and by connections", () => {
    const budget = new PublishBudget({ publishPerSecond: 10, publishBurst: 20 });
    const [a, b] = [{}, {}];
    const t = Date.now();
    // 20 points: 4 KiB costs one, 60 KB fifteen; with two connections, twice that.
    expect(budget.check(a, 'alice', 60_000, 1, t)).toBe('pass');
    expect(budget.check(b, 'alice', 4096, 2, t)).toBe('pass');
    expect(budget.check(a, 'alice', 4097, 2, t)).toBe('refuse');
    expect(budget.check(a, 'bob', 60_000, 1, t)).toBe('pass');
    // A third refusal is past a tenth of the burst: that connection is flooding; the other is not.
    expect(budget.check(a, 'alice', 4096, 4, t)).toBe('refuse');
    expect(budget.check(a, 'alice', 4096, 4, t)).toBe('disconnect');
    expect(budget.check(b, 'alice', 4096, 4, t)).toBe('refuse');
    expect(budget.check(b, 'alice', 10, 1, t + 200)).toBe('pass');
  });

  it('charges a command for at most four connections, so a user with every tab open can load a page (issue 22, part 4)', () => {
    const budget = new PublishBudget({ publishPerSecond: 50, publishBurst: 200 });
    const t = Date.now();
    // Two tabs of a user with 16 open reload at once: about 40 small commands, 4 points each.
    const verdicts = Array.from({ length: 40 }, () => budget.check({}, 'alice', 100, 16, t));
    expect(verdicts.every((v) => v === 'pass')).toBe(true);
    // 200 points at 4 each: ten more, then the budget is spent.
    expect(MAX_CHARGED_CONNECTIONS).toBe(4);
    const more = Array.from({ length: 11 }, () => budget.check({}, 'alice', 100, 16, t));
    expect(more.lastIndexOf('pass')).toBe(9);
    expect(more[10]).toBe('refuse');
  });

  it('answers only a few refusals a second per user (issue 22, part 4)', () => {
    const budget = new PublishBudget({ publishPerSecond: 1, publishBurst: 1000 });
    const t = Date.now();
    const connections = Array.from({ length: 100 }, () => ({}));
    // A command of 1,000 points spends the whole budget.
    expect(budget.check({}, 'alice', 1000 * 4096, 1, t)).toBe('pass');
    const verdicts = connections.map((c) => budget.check(c, 'alice', 10, 1, t));
    expect(verdicts.filter((v) => v === 'refuse').length).toBe(REFUSAL_ANSWERS.burst);
    expect(verdicts.filter((v) => v === 'drop').length).toBe(100 - REFUSAL_ANSWERS.burst);
  });

  it('never holds more than its burst', () => {
    const bucket = new RateLimiter(1000, 3, 0);
    const taken = Array.from({ length: 5 }, () => bucket.take(60_000)).filter(Boolean);
    expect(taken.length).toBe(3);
  });
});
