import type { QuotaDefaults, UserQuotas } from '@tessera/contract';
import type { Db } from './database.js';

/** The one row of quota_defaults. */
const DEFAULTS_ROW = 1;

/** The quota columns of users and quota_defaults, as a job kind's live-job limit reads them. */
export const QUEUE_QUOTA_COLUMNS = {
  preview: 'max_queued_previews',
  hd: 'max_queued_hd',
} as const;
export type QueueQuotaKind = keyof typeof QUEUE_QUOTA_COLUMNS;

/** The quotas' rows (migration 0025): the admin-set defaults and each user's own. */
export interface QuotaRepository {
  /** The admin-set defaults; undefined until an admin set them (the configuration's apply). */
  defaults(): Promise<QuotaDefaults | undefined>;
  setDefaults(defaults: QuotaDefaults): Promise<void>;
  /** A user's own quotas by username; undefined: no such user. */
  ofUser(username: string): Promise<UserQuotas | undefined>;
  /** Every user's own quotas, by user id. */
  all(): Promise<Map<number, UserQuotas>>;
  /** False: no such user. */
  setForUser(username: string, quotas: UserQuotas): Promise<boolean>;
  /** Images, material maps and print files of one user, in bytes (as store/user-usage.ts counts). */
  storageUsed(userId: number): Promise<number>;
  /** A user's own storage quota by id; undefined: no such user. */
  storageQuotaOf(userId: number): Promise<number | null | undefined>;
}

const bytesOrNull = (value: number | string | bigint | null) =>
  value === null ? null : Number(value);

export function createQuotaRepository(db: Db): QuotaRepository {
  const userColumns = [
    'id',
    'storage_quota_bytes',
    'max_queued_previews',
    'max_queued_hd',
  ] as const;
  const toQuotas = (row: {
    storage_quota_bytes: number | string | bigint | null;
    max_queued_previews: number | null;
    max_queued_hd: number | null;
  }): UserQuotas => ({
    storageBytes: bytesOrNull(row.storage_quota_bytes),
    queuedPreviews: row.max_queued_previews,
    queuedHd: row.max_queued_hd,
  });

  return {
    async defaults() {
      const row = await db
        .selectFrom('quota_defaults')
        .selectAll()
        .where('id', '=', DEFAULTS_ROW)
        .executeTakeFirst();
      return (
        row && {
          storageBytes: bytesOrNull(row.storage_bytes),
          queuedPreviews: row.max_queued_previews,
          queuedHd: row.max_queued_hd,
        }
      );
    },
    async setDefaults(defaults) {
      const values = {
        storage_bytes: defaults.storageBytes,
        max_queued_previews: defaults.queuedPreviews,
        max_queued_hd: defaults.queuedHd,
        updated_at: new Date().toISOString(),
      };
      await db
        .insertInto('quota_defaults')
        .values({ id: DEFAULTS_ROW, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },
    async ofUser(username) {
      const row = await db
        .selectFrom('users')
        .select(userColumns)
        .where('username', '=', username)
        .executeTakeFirst();
      return row && toQuotas(row);
    },
    async all() {
      const rows = await db.selectFrom('users').select(userColumns).execute();
      return new Map(rows.map((row) => [row.id, toQuotas(row)]));
    },
    async setForUser(username, quotas) {
      const result = await db
        .updateTable('users')
        .set({
          storage_quota_bytes: quotas.storageBytes,
          max_queued_previews: quotas.queuedPreviews,
          max_queued_hd: quotas.queuedHd,
        })
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async storageUsed(userId) {
      let total = 0;
      for (const table of ['images', 'material_maps', 'print_files'] as const) {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
          .where('owner_id', '=', userId)
          .executeTakeFirst();
        total += Number(row?.bytes ?? 0);
      }
      return total;
    },
    async storageQuotaOf(userId) {
      const row = await db
        .selectFrom('users')
        .select('storage_quota_bytes')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row && bytesOrNull(row.storage_quota_bytes);
    },
  };
}
