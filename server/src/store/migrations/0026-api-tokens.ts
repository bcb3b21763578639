import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * Personal API tokens (issue 30, part 1). Only the SHA-256 of a token's secret is kept, so a
 * copied database opens nothing; the row goes with its user (cascade), and revoking deletes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Comma-separated, in API_TOKEN_SCOPES' order: 'read,generate'.
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  // The tokens screen lists a user's tokens newest first.
  await db.schema
    .createIndex('api_tokens_user')
    .on('api_tokens')
    .columns(['user_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
