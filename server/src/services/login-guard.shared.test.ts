import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisLimiters, type RedisLimiters } from '../limits/redis.js';
import { redisMissing } from '../testing/redis.js';
import { openDatabase, type Db } from '../store/database.js';
import { databaseLimiters } from '../store/rate-limits.js';
import { tempDir } from '../testing/fixtures.js';
import { CountingLoginGuard, DEFAULT_LOGIN_LIMITS, type LoginAttempt } from './login-guard.js';

/**
 * Login throttling shared by two server processes: each guard has its own connection to the
 * store (a SQLite file; Redis at 127.0.0.1:6379), as two processes would. The default limits:
 * 10 failures of one username at one address.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const noRedis = await redisMissing(REDIS_URL);
const bob: LoginAttempt = { username: 'bob', address: '203.0.113.7', channel: 'http' };

/** Ten failures, alternating between the two guards, then an 11th on each. */
async function spreadFailures(first: CountingLoginGuard, second: CountingLoginGuard) {
  const admitted: boolean[] = [];
  for (let i = 0; i < 10; i++) {
    const guard = i % 2 === 0 ? first : second;
    const { allowed } = await guard.reserve(bob);
    if (allowed) await guard.failed(bob);
    admitted.push(allowed);
  }
  return {
    admitted,
    eleventh: [(await first.reserve(bob)).allowed, (await second.reserve(bob)).allowed],
  };
}

describe('login throttling across processes', () => {
  it('counts failures in the database: the 11th is refused on both', async () => {
    const data = tempDir();
    const dbs: Db[] = [
      await openDatabase({ dataDir: data.dir }),
      await openDatabase({ dataDir: data.dir }),
    ];
    try {
      const [a, b] = dbs.map((db) => new CountingLoginGuard(databaseLimiters(db))) as [
        CountingLoginGuard,
        CountingLoginGuard,
      ];
      const { admitted, eleventh } = await spreadFailures(a, b);
      expect(admitted).toEqual(Array(10).fill(true));
      expect(eleventh).toEqual([false, false]);
      // The right password elsewhere (another address) is not refused.
      expect((await a.reserve({ ...bob, address: '198.51.100.1' })).allowed).toBe(true);
      // Proving the password from the address forgets its failures on both.
      await b.succeeded({ ...bob, address: '198.51.100.1' });
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      data.remove();
    }
  });

  it('lets a right password wait for checks under way in another process (issue 22, part 2)', async () => {
    const data = tempDir();
    const dbs: Db[] = [
      await openDatabase({ dataDir: data.dir }),
      await openDatabase({ dataDir: data.dir }),
    ];
    try {
      const [a, b] = dbs.map((db) => new CountingLoginGuard(databaseLimiters(db))) as [
        CountingLoginGuard,
        CountingLoginGuard,
      ];
      // Ten of bob's checks under way in process b fill his count at this address.
      for (let i = 0; i < 10; i++) expect((await b.reserve(bob)).allowed).toBe(true);
      const waiting = a.reserve(bob);
      await b.succeeded(bob);
      expect((await waiting).allowed).toBe(true);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      data.remove();
    }
  });

  describe.skipIf(noRedis)('with REDIS_URL', () => {
    // A prefix of this run only, removed afterwards: a shared Redis keeps no trace.
    const prefix = `tessera-test-${randomUUID()}:`;
    const connections: RedisLimiters[] = [];
    let inspector: Redis;

    beforeAll(async () => {
      inspector = new Redis(REDIS_URL, { lazyConnect: true });
      await inspector.connect();
      for (let i = 0; i < 2; i++) connections.push(await connectRedisLimiters(REDIS_URL, prefix));
    });

    afterAll(async () => {
      const keys = await inspector.keys(`${prefix}*`);
      if (keys.length > 0) await inspector.del(...keys);
      await Promise.all(connections.map((c) => c.close()));
      await inspector.quit();
    });

    it('counts failures in Redis under its key prefix: the 11th is refused on both', async () => {
      const [a, b] = connections.map(
        (c) => new CountingLoginGuard(c.limiters, DEFAULT_LOGIN_LIMITS),
      ) as [CountingLoginGuard, CountingLoginGuard];
      const { admitted, eleventh } = await spreadFailures(a, b);
      expect(admitted).toEqual(Array(10).fill(true));
      expect(eleventh).toEqual([false, false]);
      expect((await inspector.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    });

    it('refuses to start with a Redis it cannot reach, naming REDIS_URL', async () => {
      await expect(connectRedisLimiters('redis://127.0.0.1:1', prefix)).rejects.toThrow(
        /REDIS_URL: cannot reach Redis/,
      );
    });
  });
});
