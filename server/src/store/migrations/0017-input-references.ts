import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * The content hash of each uploaded reference (issue 22, part 13): an upload whose bytes the user
 * has stored already reuses that reference instead of adding a copy. One row per reference file;
 * a user's files from before this table are hashed when they next upload (services/references.ts),
 * so no start-up pass reads every file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('input_references')
    // Recording order: of two identical uploads at once, both agree the lower seq is kept.
    .addColumn('seq', 'integer', numberedPrimaryKey(db))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('input_references_file')
    .on('input_references')
    .columns(['owner_id', 'filename'])
    .unique()
    .execute();
  await db.schema
    .createIndex('input_references_by_hash')
    .on('input_references')
    .columns(['owner_id', 'sha256', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('input_references').execute();
}
