import { sql, type Kysely } from 'kysely';
import { databaseDialect } from '../dialect.js';

/**
 * A number per user that every change to the user's images or their tag links raises (issue 28,
 * part 2). A listing's page N is read by keyset after page N-1's last row, and its total is kept,
 * only while this number is what it was when they were read: so the pages stay exactly what
 * LIMIT/OFFSET gives, whichever process or cascade changed the rows. Triggers, not the
 * repository, raise it: a tag's deletion, a user's, another server on the same database, all count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('images_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (databaseDialect(db) === 'postgres') {
    await sql`
      create function raise_images_version() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update users set images_version = images_version + 1 where id = old.owner_id;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.owner_id <> old.owner_id) then
          update users set images_version = images_version + 1 where id = new.owner_id;
        end if;
        return null;
      end $$
    `.execute(db);
    for (const table of TABLES) {
      await sql`
        create trigger ${sql.raw(`${table}_raise_images_version`)}
        after insert or update or delete on ${sql.raw(table)}
        for each row execute function raise_images_version()
      `.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    for (const [event, owners] of SQLITE_EVENTS) {
      await sql`
        create trigger ${sql.raw(`${table}_raise_images_version_${event}`)}
        after ${sql.raw(event)} on ${sql.raw(table)}
        begin
          update users set images_version = images_version + 1 where id in (${sql.raw(owners)});
        end
      `.execute(db);
    }
  }
}

const TABLES = ['images', 'image_tags'] as const;

/** SQLite's triggers, one per event, and the owners each raises. */
const SQLITE_EVENTS = [
  ['insert', 'new.owner_id'],
  ['update', 'old.owner_id, new.owner_id'],
  ['delete', 'old.owner_id'],
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  if (databaseDialect(db) === 'postgres') {
    for (const table of TABLES)
      await sql`drop trigger ${sql.raw(`${table}_raise_images_version`)} on ${sql.raw(table)}`.execute(
        db,
      );
    await sql`drop function raise_images_version()`.execute(db);
  } else {
    for (const table of TABLES)
      for (const [event] of SQLITE_EVENTS)
        await sql`drop trigger ${sql.raw(`${table}_raise_images_version_${event}`)}`.execute(db);
  }
  await db.schema.alterTable('users').dropColumn('images_version').execute();
}
