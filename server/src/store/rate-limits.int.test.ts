import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../testing/database.js';
import type { Db } from './database.js';
import { databaseLimiters } from './rate-limits.js';

/** The database's fixed-window counters (rate_limits), on a real database. */
describe('databaseLimiters', () => {
  let store: TestDatabase;
  let db: Db;
  let clock: number;
  beforeEach(async () => {
    store = await freshDatabase();
    db = store.db;
    clock = 1_000_000;
  });
  afterEach(async () => {
    await store.close();
  });

  const limiter = () =>
    databaseLimiters(db, () => clock)({ keyPrefix: 'test', points: 3, duration: 10 });

  it('admits `points` per window, refuses the next with the time left, and starts again after', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++)
      await expect(l.consume('k')).resolves.toBeInstanceOf(RateLimiterRes);
    clock += 4000;
    const refused = await l.consume('k').catch((res: unknown) => res);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).toBe(6000);
    // Another key, or the same prefix's key of another limit, counts apart.
    await expect(l.consume('other')).resolves.toBeInstanceOf(RateLimiterRes);
    clock += 6000;
    await expect(l.consume('k')).resolves.toMatchObject({ consumedPoints: 1 });
  });

  it('gives points back and forgets a key', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.consume('k');
    await l.reward('k');
    await expect(l.consume('k')).resolves.toMatchObject({ consumedPoints: 3 });
    await l.delete('k');
    await expect(l.consume('k')).resolves.toMatchObject({ consumedPoints: 1 });
  });

  it('reads a count without changing it, and nothing for a window that ended (issue 22, part 2)', async () => {
    const l = limiter();
    await expect(l.get('k')).resolves.toBeNull();
    for (let i = 0; i < 2; i++) await l.consume('k');
    await expect(l.get('k')).resolves.toMatchObject({ consumedPoints: 2 });
    await expect(l.get('k')).resolves.toMatchObject({ consumedPoints: 2 });
    clock += 10_000;
    await expect(l.get('k')).resolves.toBeNull();
  });

  it('counts parallel consumptions exactly', async () => {
    const l = limiter();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => l.consume('k')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
  });
});
