import type { Kysely } from 'kysely';

/** The HD queue page and cancelling find a user's job by the id the client gave it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('jobs_owner_public_id')
    .on('jobs')
    .columns(['owner_id', 'kind', 'public_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_owner_public_id').execute();
}
