import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * Webhooks (issue 30, part 3). `webhook_endpoints`: a user's URLs (scope 'own'), or an admin's for
 * everyone's events (scope 'all'); `events` is the types asked for, each between spaces
 * (` hd.finished preview.failed `), so one LIKE finds the endpoints of an event on both databases;
 * the secret is kept as is (signing needs it). `webhook_deliveries` is the outbox: one row per
 * event and endpoint, written in the transaction that ends the job, claimed under a lease as jobs
 * are (0015), retried until a day after `window_start`. `webhook_attempts` keeps every try.
 * Numbered 0027: 0026 belongs to the API tokens (issue 30, part 1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('public_id', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'varchar(8)', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_owner')
    .on('webhook_endpoints')
    .columns(['owner_id', 'scope'])
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_scope')
    .on('webhook_endpoints')
    .columns(['scope', 'active'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('message_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_message', ['endpoint_id', 'message_id'])
    .execute();
  // The claim's scan (due and pending, or sending under an expired lease) and the list per endpoint.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('delivery_id', 'integer', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'varchar(16)')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
