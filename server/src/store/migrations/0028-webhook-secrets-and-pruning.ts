import type { Kysely } from 'kysely';

/**
 * Webhook upkeep (issue 30, part 3, continued). Secret rotation: `previous_secret` is the secret a
 * rotation replaced, which still signs deliveries (beside the new one) until
 * `previous_secret_until`; both null otherwise. Pruning: settled deliveries (delivered or failed)
 * go after WEBHOOK_DELIVERY_RETENTION_DAYS, found by their state and last change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('previous_secret_until', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_settled')
    .on('webhook_deliveries')
    .columns(['state', 'updated_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_settled').execute();
  for (const column of ['previous_secret_until', 'previous_secret'])
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
}
