import type { Kysely } from 'kysely';

/**
 * Per-user quotas (issue 29, part 3). Each user column null follows the default. `quota_defaults`
 * holds the admin-set defaults in its one row (id 1); until an admin sets them the configuration
 * (STORAGE_QUOTA_GB, MAX_QUEUED_*_PER_USER) gives them. Its `storage_bytes` null: no limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('storage_quota_bytes', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('max_queued_previews', 'integer').execute();
  await db.schema.alterTable('users').addColumn('max_queued_hd', 'integer').execute();
  await db.schema
    .createTable('quota_defaults')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('storage_bytes', 'bigint')
    .addColumn('max_queued_previews', 'integer', (c) => c.notNull())
    .addColumn('max_queued_hd', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quota_defaults').execute();
  for (const column of ['max_queued_hd', 'max_queued_previews', 'storage_quota_bytes'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
