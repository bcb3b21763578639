import type { Kysely } from 'kysely';

/**
 * Leases (issue 16, part 2): a running job names the process that holds it and until when. That
 * process renews the lease while the job runs; a job whose lease ran out (its process died) is
 * claimed again by another, and the process that lost it writes nothing more. jobs_lease serves
 * the sweep for expired leases; jobs_owner_served the claim's "owner served longest ago" (one
 * lookup per owner instead of a scan of their history). Numbered 0015: 0014 belongs to the
 * shared limits (issue 16, part 5).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lease_holder', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('lease_expires_at', 'text').execute();
  await db.schema
    .createIndex('jobs_lease')
    .on('jobs')
    .columns(['status', 'lease_expires_at'])
    .execute();
  await db.schema
    .createIndex('jobs_owner_served')
    .on('jobs')
    .columns(['owner_id', 'kind', 'claimed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_owner_served').execute();
  await db.schema.dropIndex('jobs_lease').execute();
  await db.schema.alterTable('jobs').dropColumn('lease_expires_at').execute();
  await db.schema.alterTable('jobs').dropColumn('lease_holder').execute();
}
