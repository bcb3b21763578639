import { sql, type Kysely } from 'kysely';
import { databaseDialect } from '../dialect.js';

/**
 * The order tags were made in, within one owner's tags (issue 16, part 1): the tie-breaker of
 * tags made in the same millisecond was SQLite's rowid, which PostgreSQL has not. Existing rows
 * take their rowid, so their order stays as it was; store/tags.ts numbers new ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tags')
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (databaseDialect(db) === 'sqlite') await sql`update tags set seq = rowid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tags').dropColumn('seq').execute();
}
