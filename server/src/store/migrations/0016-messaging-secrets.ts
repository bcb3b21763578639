import type { Kysely } from 'kysely';

/**
 * Messaging secrets (issue 22, part 3): each session may carry a random 256-bit secret the
 * browser logs in to the embedded broker with instead of its password, so a reconnect costs a
 * lookup, not scrypt. Only the secret's SHA-256 is kept, as for the session token; it goes with
 * its session row (logout, password change, removal, expiry).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('messaging_secret_hash', 'text').execute();
  await db.schema
    .createIndex('sessions_messaging_secret')
    .on('sessions')
    .column('messaging_secret_hash')
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_messaging_secret').execute();
  await db.schema.alterTable('sessions').dropColumn('messaging_secret_hash').execute();
}
