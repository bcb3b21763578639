import { API_TOKEN_SCOPES, type ApiTokenScope } from '@tessera/contract';
import type { Db } from './database.js';

/** A token as its owner lists it (never its secret). */
export interface ApiTokenRecord {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** A live token with its user: what a Bearer request acts as. */
export interface ApiTokenUser {
  tokenId: number;
  tokenName: string;
  /** null: it never expires. */
  expiresAt: string | null;
  userId: number;
  username: string;
  role: 'admin' | 'member';
  scopes: ApiTokenScope[];
  lastUsedAt: string | null;
}

export interface NewApiToken {
  userId: number;
  name: string;
  scopes: readonly ApiTokenScope[];
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** The api_tokens table (issue 30, part 1): one method per query. */
export interface ApiTokenRepository {
  create(token: NewApiToken): Promise<ApiTokenRecord>;
  /** The user's tokens, newest first. */
  list(userId: number): Promise<ApiTokenRecord[]>;
  count(userId: number): Promise<number>;
  /**
   * The token with this hash while it lives (not expired at `now`), with its user, if that user
   * may sign in (not disabled, not retired).
   */
  findLive(tokenHash: string, now: Date): Promise<ApiTokenUser | undefined>;
  /** Writes "last used" unless it was written less than `minAgeMs` before `now`. */
  touchLastUsed(tokenId: number, now: Date, minAgeMs: number): Promise<void>;
  /** Deletes the user's token; whether there was one (another user's id is none). */
  remove(userId: number, tokenId: number): Promise<ApiTokenRecord | undefined>;
}

const COLUMNS = ['id', 'name', 'scopes', 'created_at', 'expires_at', 'last_used_at'] as const;

/** Stored comma-separated in the scopes' own order, read back keeping only known ones. */
function scopesOf(text: string): ApiTokenScope[] {
  const stored = new Set(text.split(','));
  return API_TOKEN_SCOPES.filter((scope) => stored.has(scope));
}

function toRecord(row: {
  id: number;
  name: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}): ApiTokenRecord {
  return {
    id: Number(row.id),
    name: row.name,
    scopes: scopesOf(row.scopes),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

export function createApiTokenRepository(db: Db): ApiTokenRepository {
  return {
    async create(token) {
      const row = await db
        .insertInto('api_tokens')
        .values({
          user_id: token.userId,
          name: token.name,
          scopes: API_TOKEN_SCOPES.filter((scope) => token.scopes.includes(scope)).join(','),
          token_hash: token.tokenHash,
          created_at: token.createdAt.toISOString(),
          expires_at: token.expiresAt?.toISOString() ?? null,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async list(userId) {
      const rows = await db
        .selectFrom('api_tokens')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toRecord);
    },
    async count(userId) {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async findLive(tokenHash, now) {
      const row = await db
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select([
          'api_tokens.id',
          'api_tokens.name',
          'api_tokens.expires_at',
          'api_tokens.user_id',
          'api_tokens.scopes',
          'api_tokens.last_used_at',
          'users.username',
          'users.role',
        ])
        .where('api_tokens.token_hash', '=', tokenHash)
        .where((eb) =>
          eb.or([
            eb('api_tokens.expires_at', 'is', null),
            eb('api_tokens.expires_at', '>', now.toISOString()),
          ]),
        )
        // A disabled or retired user's tokens open nothing, as their password does not.
        .where('users.disabled_at', 'is', null)
        .where('users.retired_at', 'is', null)
        .executeTakeFirst();
      return (
        row && {
          tokenId: Number(row.id),
          tokenName: row.name,
          expiresAt: row.expires_at,
          userId: row.user_id,
          username: row.username,
          role: row.role === 'admin' ? 'admin' : 'member',
          scopes: scopesOf(row.scopes),
          lastUsedAt: row.last_used_at,
        }
      );
    },
    async touchLastUsed(tokenId, now, minAgeMs) {
      await db
        .updateTable('api_tokens')
        .set({ last_used_at: now.toISOString() })
        .where('id', '=', tokenId)
        .where((eb) =>
          eb.or([
            eb('last_used_at', 'is', null),
            eb('last_used_at', '<=', new Date(now.getTime() - minAgeMs).toISOString()),
          ]),
        )
        .execute();
    },
    async remove(userId, tokenId) {
      const row = await db
        .deleteFrom('api_tokens')
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toRecord(row);
    },
  };
}
