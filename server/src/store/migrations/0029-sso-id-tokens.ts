import type { Kysely } from 'kysely';

/**
 * The provider's logout (issue 30, part 4, continued): a single sign-on session keeps the ID
 * token its provider gave, so that signing out can send the browser to the provider's
 * end-session endpoint with it as `id_token_hint`. Server side only; it goes with its session
 * row (sign-out, expiry, disabling, removal). Null for password sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('id_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('id_token').execute();
}
