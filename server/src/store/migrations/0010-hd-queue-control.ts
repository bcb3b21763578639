import type { Kysely } from 'kysely';

/**
 * The owner's say over their own queue (issue 13, feature 13): `queue_order` ranks an owner's
 * queued jobs (lower first; equal ranks in arrival order), so "move to top" is one update of one
 * row; a row of `job_queue_pauses` holds back an owner's queued jobs of a kind until resumed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('queue_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('job_queue_pauses')
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('paused_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_queue_pauses_pk', ['owner_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_queue_pauses').execute();
  await db.schema.alterTable('jobs').dropColumn('queue_order').execute();
}
