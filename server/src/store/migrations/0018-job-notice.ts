import type { Kysely } from 'kysely';

/**
 * What a running job waits for now, for its owner to read (issue 23, part 11: the object store
 * unreachable, retrying). Kept with the job, not in the running process: a preview's status is
 * read over HTTP by whichever web process the browser reaches, not the worker running the job.
 * Cleared by every way out of 'in_progress' and by a claim.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('notice', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('notice').execute();
}
