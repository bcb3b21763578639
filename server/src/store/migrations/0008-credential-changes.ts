import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * One row per password change or user removal, in commit order, so that every running server
 * (and not only the process that made the change, such as `npm run users`) ends that user's
 * connections: each server reads the rows after the last one it has seen, every second.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credential_changes')
    .addColumn('seq', 'integer', numberedPrimaryKey(db))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credential_changes').execute();
}
