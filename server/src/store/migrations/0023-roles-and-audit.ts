import { sql, type Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * Roles, disabled accounts and the audit trail (issue 29). Existing studios keep working: the
 * first user made (the first start's `admin`) becomes an administrator, everyone else a member.
 * `retired_at` marks a user removed with their images kept: no sign-in, the name and files stay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('retired_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();
  await sql`update users set role = 'admin' where id = (select min(id) from users)`.execute(db);

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('address', 'text')
    .execute();
  // The list pages newest first by id; each filter has its index, and pruning reads `at`.
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
  for (const column of ['action', 'actor', 'target'] as const) {
    await db.schema
      .createIndex(`audit_events_${column}`)
      .on('audit_events')
      .columns([column, 'id'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
  for (const column of ['last_seen_at', 'retired_at', 'disabled_at', 'role'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
