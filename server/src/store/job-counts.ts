import type { Db } from './database.js';

/** How many jobs of one kind are in one live state, across every process sharing the queue. */
export interface LiveJobCount {
  kind: string;
  status: 'queued' | 'in_progress';
  count: number;
}

/** The job queue's size, for metrics: read at every scrape, one grouped query. */
export interface JobCountsRepository {
  live(): Promise<LiveJobCount[]>;
}

export function createJobCountsRepository(db: Db): JobCountsRepository {
  return {
    async live() {
      const rows = await db
        .selectFrom('jobs')
        .select(['kind', 'status', (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('status', 'in', ['queued', 'in_progress'])
        .groupBy(['kind', 'status'])
        .execute();
      // PostgreSQL's count is a bigint, which its driver hands over as a string.
      return rows.map((row) => ({
        kind: row.kind,
        status: row.status as LiveJobCount['status'],
        count: Number(row.count),
      }));
    },
  };
}
