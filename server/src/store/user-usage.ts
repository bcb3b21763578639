import type { UserQuotas } from '@tessera/contract';
import type { Db } from './database.js';
import { createQuotaRepository } from './quotas.js';

/** What one user has and uses, for the admin's users list (issue 29, part 2). */
export interface UserUsage {
  ldImages: number;
  hdImages: number;
  /** Images, material maps and print files, as their rows record them. */
  storageBytes: number;
  /** Jobs of any kind queued or running. */
  queuedJobs: number;
  /** The user's own quotas (issue 29, part 3), shown beside the usage; null: the default. */
  quotas: UserQuotas;
}

const DEFAULT_QUOTAS: UserQuotas = { storageBytes: null, queuedPreviews: null, queuedHd: null };

export const NO_USAGE: UserUsage = {
  ldImages: 0,
  hdImages: 0,
  storageBytes: 0,
  queuedJobs: 0,
  quotas: DEFAULT_QUOTAS,
};

/** Every user's usage by user id: a few grouped queries, whatever the number of users. */
export async function usageByUser(db: Db): Promise<Map<number, UserUsage>> {
  const usage = new Map<number, UserUsage>();
  const of = (id: number) => {
    let found = usage.get(id);
    if (!found) usage.set(id, (found = { ...NO_USAGE }));
    return found;
  };
  const images = await db
    .selectFrom('images')
    .select((eb) => [
      'owner_id',
      'kind',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('bytes').as('bytes'),
    ])
    .groupBy(['owner_id', 'kind'])
    .execute();
  for (const row of images) {
    const user = of(row.owner_id);
    if (row.kind === 'ld') user.ldImages += Number(row.n);
    else user.hdImages += Number(row.n);
    user.storageBytes += Number(row.bytes ?? 0);
  }
  for (const table of ['material_maps', 'print_files'] as const) {
    const rows = await db
      .selectFrom(table)
      .select((eb) => ['owner_id', eb.fn.sum<number | string | null>('bytes').as('bytes')])
      .groupBy('owner_id')
      .execute();
    for (const row of rows) of(row.owner_id).storageBytes += Number(row.bytes ?? 0);
  }
  const jobs = await db
    .selectFrom('jobs')
    .select((eb) => ['owner_id', eb.fn.countAll<number | string>().as('n')])
    .where('status', 'in', ['queued', 'in_progress'])
    .groupBy('owner_id')
    .execute();
  for (const row of jobs) of(row.owner_id).queuedJobs += Number(row.n);
  for (const [id, quotas] of await createQuotaRepository(db).all()) of(id).quotas = quotas;
  return usage;
}

/** The usage queries as the user service reads them. */
export interface UserUsageReader {
  all(): Promise<Map<number, UserUsage>>;
  of(userId: number): Promise<UserUsage>;
}

export function createUserUsageReader(db: Db): UserUsageReader {
  return {
    all: () => usageByUser(db),
    // The users list is short (20-200 people): one user's usage is read from the same queries.
    of: async (userId) => (await usageByUser(db)).get(userId) ?? { ...NO_USAGE },
  };
}
