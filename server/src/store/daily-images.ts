import type { ExpressionBuilder } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

const utcDayOf = (eb: ExpressionBuilder<Database, 'images'>) =>
  eb.fn<string>('substr', ['images.created_at', eb.lit(1), eb.lit(10)]);

/** How many images of one kind one user made on one UTC day. */
export interface DailyImageCount {
  /** YYYY-MM-DD, UTC. */
  day: string;
  username: string;
  kind: 'ld' | 'hd';
  count: number;
}

/** Images made per day for the admin's usage charts (issue 29, part 6). */
export interface DailyImagesRepository {
  /** Every image made from `fromDay` to `toDay` (UTC days, both included), grouped. */
  between(fromDay: string, toDay: string): Promise<DailyImageCount[]>;
}

/**
 * created_at is ISO 8601 in UTC on both databases, so its first ten characters are the UTC day:
 * substr buckets alike on SQLite and PostgreSQL, and the range is a plain text comparison.
 * HD rows whose file the retention policy removed are kept, and counted: they were made.
 */
export function createDailyImagesRepository(db: Db): DailyImagesRepository {
  return {
    async between(fromDay, toDay) {
      const rows = await db
        .selectFrom('images')
        .innerJoin('users', 'users.id', 'images.owner_id')
        .select((eb) => [
          utcDayOf(eb).as('day'),
          'users.username',
          'images.kind',
          eb.fn.countAll<number | string>().as('count'),
        ])
        .where('images.created_at', '>=', fromDay)
        // Every ISO time of toDay sorts before the day's own text followed by '~'.
        .where('images.created_at', '<', `${toDay}~`)
        .groupBy((eb) => [utcDayOf(eb), 'users.username', 'images.kind'])
        .execute();
      // PostgreSQL's count is a bigint, which its driver hands over as a string.
      return rows.map((row) => ({
        day: row.day,
        username: row.username,
        kind: row.kind,
        count: Number(row.count),
      }));
    },
  };
}
