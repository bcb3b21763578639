import type { Db } from './database.js';

export interface SessionRecord {
  userId: number;
  username: string;
  expiresAt: string;
  /** The user's role now (issue 29): the admin routes read it on every request. */
  role: 'admin' | 'member';
}

/** The sessions table: one method per query. */
export interface SessionRepository {
  create(
    tokenHash: string,
    userId: number,
    expiresAt: Date,
    messagingSecretHash?: string,
    /** A single sign-on session's ID token, for the provider's logout (id_token_hint). */
    idToken?: string,
  ): Promise<void>;
  /** The live session for a token hash, with its user; expired ones are not returned. */
  findLive(tokenHash: string, now: Date): Promise<SessionRecord | undefined>;
  /** The live session whose messaging secret has this hash, with its user. */
  findLiveByMessagingSecret(secretHash: string, now: Date): Promise<SessionRecord | undefined>;
  /** The ID token kept with this session (single sign-on), expired or not. */
  idTokenOf(tokenHash: string): Promise<string | undefined>;
  remove(tokenHash: string): Promise<void>;
  removeForUser(userId: number): Promise<void>;
  removeExpired(now: Date): Promise<number>;
}

export function createSessionRepository(db: Db): SessionRepository {
  async function liveSession(
    column: 'token_hash' | 'messaging_secret_hash',
    hash: string,
    now: Date,
  ): Promise<SessionRecord | undefined> {
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.user_id', 'users.username', 'sessions.expires_at', 'users.role'])
      .where(`sessions.${column}`, '=', hash)
      .where('sessions.expires_at', '>', now.toISOString())
      // Disabling ends the sessions too; this holds should one be made in the same instant.
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        userId: row.user_id,
        username: row.username,
        expiresAt: row.expires_at,
        role: row.role === 'admin' ? 'admin' : 'member',
      }
    );
  }

  return {
    async create(tokenHash, userId, expiresAt, messagingSecretHash, idToken) {
      await db
        .insertInto('sessions')
        .values({
          token_hash: tokenHash,
          user_id: userId,
          created_at: new Date().toISOString(),
          expires_at: expiresAt.toISOString(),
          messaging_secret_hash: messagingSecretHash ?? null,
          id_token: idToken ?? null,
        })
        .execute();
    },
    async findLive(tokenHash, now) {
      return liveSession('token_hash', tokenHash, now);
    },
    async findLiveByMessagingSecret(secretHash, now) {
      return liveSession('messaging_secret_hash', secretHash, now);
    },
    async idTokenOf(tokenHash) {
      const row = await db
        .selectFrom('sessions')
        .select('id_token')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row?.id_token ?? undefined;
    },
    async remove(tokenHash) {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },
    async removeForUser(userId) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
    async removeExpired(now) {
      const result = await db
        .deleteFrom('sessions')
        .where('expires_at', '<=', now.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
