import { RateLimiterRes } from 'rate-limiter-flexible';
import type { LimiterFactory, LimiterOptions, SharedLimiter } from '../limits/shared-limiter.js';
import type { Db } from './database.js';

/** Expired windows are deleted once every this many consumptions of a process. */
const PURGE_EVERY = 500;

/**
 * Limiters counted in the database's `rate_limits` table, so that every server process sharing
 * the database shares the counts. Each consumption is one upsert (atomic on SQLite and
 * PostgreSQL alike): a window that ended starts again at the points consumed.
 */
export function databaseLimiters(db: Db, now: () => number = Date.now): LimiterFactory {
  let consumed = 0;
  const purge = async () => {
    if (++consumed % PURGE_EVERY !== 0) return;
    await db.deleteFrom('rate_limits').where('expires_at', '<=', now()).execute();
  };
  return (options) => new DatabaseLimiter(db, options, now, purge);
}

class DatabaseLimiter implements SharedLimiter {
  constructor(
    private readonly db: Db,
    private readonly options: LimiterOptions,
    private readonly now: () => number,
    private readonly purge: () => Promise<void>,
  ) {}

  async consume(key: string, points = 1): Promise<RateLimiterRes> {
    const now = this.now();
    const windowEnd = now + this.options.duration * 1000;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key: this.keyOf(key), points, expires_at: windowEnd })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          points: eb
            .case()
            .when('rate_limits.expires_at', '<=', now)
            .then(points)
            .else(eb('rate_limits.points', '+', points))
            .end(),
          expires_at: eb
            .case()
            .when('rate_limits.expires_at', '<=', now)
            .then(windowEnd)
            .else(eb.ref('rate_limits.expires_at'))
            .end(),
        })),
      )
      .returning(['points', 'expires_at'])
      .executeTakeFirstOrThrow();
    await this.purge();
    const used = Number(row.points);
    const res = new RateLimiterRes(
      Math.max(0, this.options.points - used),
      Math.max(0, Number(row.expires_at) - now),
      used,
      used === points,
    );
    if (used > this.options.points) throw res;
    return res;
  }

  async reward(key: string, points = 1): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set((eb) => ({ points: eb('points', '-', points) }))
      .where('key', '=', this.keyOf(key))
      .where('expires_at', '>', this.now())
      .execute();
  }

  async get(key: string): Promise<RateLimiterRes | null> {
    const now = this.now();
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['points', 'expires_at'])
      .where('key', '=', this.keyOf(key))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const used = Number(row.points);
    return new RateLimiterRes(
      Math.max(0, this.options.points - used),
      Math.max(0, Number(row.expires_at) - now),
      used,
      false,
    );
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', this.keyOf(key)).execute();
  }

  private keyOf(key: string): string {
    return `${this.options.keyPrefix}:${key}`;
  }
}
