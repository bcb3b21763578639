import { sql, type Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    // The id the client knows the job by (the preview's `id`, the HD command's `id`).
    .addColumn('public_id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('output', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    // A job is not claimed before this time: retries wait out their backoff.
    .addColumn('run_after', 'text', (c) => c.notNull())
    // Two live jobs with the same key (one HD job per image and size) cannot exist.
    .addColumn('dedupe_key', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('jobs_claim')
    .on('jobs')
    .columns(['kind', 'status', 'run_after', 'id'])
    .execute();
  await db.schema
    .createIndex('jobs_owner_latest')
    .on('jobs')
    .columns(['owner_id', 'kind', 'id'])
    .execute();
  await db.schema
    .createIndex('jobs_live_dedupe')
    .on('jobs')
    .columns(['owner_id', 'kind', 'dedupe_key'])
    .unique()
    .where(sql.ref('status'), 'in', ['queued', 'in_progress'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
