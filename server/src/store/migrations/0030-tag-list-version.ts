import { sql, type Kysely } from 'kysely';
import { databaseDialect } from '../dialect.js';

/**
 * A number per user that every change to the user's tags raises (issue 28, part 1): a process
 * keeps the tag pages it answered list-tag with, and serves one again while this number is what
 * it was when the page was read (store/tag-pages.ts). Triggers raise it, as 0022's do for the
 * images: another server on the same database, a user's deletion, every way counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('tags_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (databaseDialect(db) === 'postgres') {
    await sql`
      create function raise_tags_version() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update users set tags_version = tags_version + 1 where id = old.owner_id;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.owner_id <> old.owner_id) then
          update users set tags_version = tags_version + 1 where id = new.owner_id;
        end if;
        return null;
      end $$
    `.execute(db);
    await sql`
      create trigger tags_raise_tags_version
      after insert or update or delete on tags
      for each row execute function raise_tags_version()
    `.execute(db);
    return;
  }
  for (const [event, owners] of SQLITE_EVENTS) {
    await sql`
      create trigger ${sql.raw(`tags_raise_tags_version_${event}`)}
      after ${sql.raw(event)} on tags
      begin
        update users set tags_version = tags_version + 1 where id in (${sql.raw(owners)});
      end
    `.execute(db);
  }
}

/** SQLite's triggers, one per event, and the owners each raises. */
const SQLITE_EVENTS = [
  ['insert', 'new.owner_id'],
  ['update', 'old.owner_id, new.owner_id'],
  ['delete', 'old.owner_id'],
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  if (databaseDialect(db) === 'postgres') {
    await sql`drop trigger tags_raise_tags_version on tags`.execute(db);
    await sql`drop function raise_tags_version()`.execute(db);
  } else {
    for (const [event] of SQLITE_EVENTS)
      await sql`drop trigger ${sql.raw(`tags_raise_tags_version_${event}`)}`.execute(db);
  }
  await db.schema.alterTable('users').dropColumn('tags_version').execute();
}
