import type { Kysely } from 'kysely';

/**
 * What several server processes must share (issue 16, part 5): the counts of login throttling
 * and of the per-user command rate, one row per key and window; the ZIP download tickets, so
 * that the POST on one server and the GET on another find the same ticket; and the processes
 * running now. Times are milliseconds since the epoch, compared as numbers on every database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limits_expires_at')
    .on('rate_limits')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('zip_downloads')
    /** SHA-256 of the token: a copy of the database hands out no download. */
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    /** JSON text: the file names, in the order asked. */
    .addColumn('names', 'text', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('sent', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint')
    .addColumn('error', 'text')
    /** Waiting: unused until then. Sending: renewed while bytes go out. Ended: readable until. */
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  /** The processes running now: each renews its row while it runs and removes it when it stops. */
  await db.schema
    .createTable('instances')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('zip_downloads_owner')
    .on('zip_downloads')
    .columns(['owner_id', 'state'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instances').execute();
  await db.schema.dropTable('zip_downloads').execute();
  await db.schema.dropTable('rate_limits').execute();
}
