import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_LAST_USED_EVERY_MS,
  API_TOKEN_PREFIX,
  MAX_API_TOKENS_PER_USER,
  serverError,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenRequest,
  type CreateApiTokenResponse,
} from '@tessera/contract';
import type { ApiTokenRecord, ApiTokenRepository } from '../store/api-tokens.js';
import type { Owner } from '../owner.js';
import { noAuditTrail, type Actor, type AuditTrail } from './audit.js';
import { ServiceError } from './errors.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The user a Bearer token acts as, with what the token may do. */
export interface TokenUser extends Owner {
  role: 'admin' | 'member';
  scopes: readonly ApiTokenScope[];
  /** The token itself, as its owner lists it (never its secret): whoami tells it. */
  token: { id: number; name: string; expiresAt: string | null };
}

/** What the HTTP session hook needs: the user of a Bearer secret, if it is a live token's. */
export interface ApiTokenAuthenticator {
  authenticate(secret: string): Promise<TokenUser | undefined>;
}

/**
 * Personal API tokens (issue 30, part 1): made, listed and revoked by their owner with the
 * session cookie, and resolved for each Bearer request. A secret is `tsr_` and 256 random bits
 * (base64url); only its SHA-256 is stored, which is enough for a random secret (no slow hash:
 * nothing to guess), as for the session tokens.
 */
export class ApiTokenService implements ApiTokenAuthenticator {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly audit: AuditTrail = noAuditTrail,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(
    owner: Owner,
    request: CreateApiTokenRequest,
    actor: Actor,
  ): Promise<CreateApiTokenResponse> {
    if ((await this.tokens.count(owner.id)) >= MAX_API_TOKENS_PER_USER)
      throw new ServiceError(serverError('API_TOKEN_LIMIT_REACHED', MAX_API_TOKENS_PER_USER));
    const secret = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const createdAt = this.now();
    const days = request.expires_in_days;
    const record = await this.tokens.create({
      userId: owner.id,
      name: request.name,
      scopes: request.scopes,
      tokenHash: hashSecret(secret),
      createdAt,
      expiresAt: days === null ? null : new Date(createdAt.getTime() + days * DAY_MS),
    });
    await this.audit.note({
      actor,
      action: 'api-token-created',
      target: owner.username,
      details: {
        id: record.id,
        name: record.name,
        scopes: record.scopes,
        expiresAt: record.expiresAt,
      },
    });
    return { token: view(record), secret };
  }

  async list(owner: Owner): Promise<ApiToken[]> {
    return (await this.tokens.list(owner.id)).map(view);
  }

  /** Deletes the owner's token: the next request with it gets 401. False: no such token of theirs. */
  async revoke(owner: Owner, id: number, actor: Actor): Promise<boolean> {
    const removed = await this.tokens.remove(owner.id, id);
    if (!removed) return false;
    await this.audit.note({
      actor,
      action: 'api-token-revoked',
      target: owner.username,
      details: { id: removed.id, name: removed.name },
    });
    return true;
  }

  async authenticate(secret: string): Promise<TokenUser | undefined> {
    if (!secret.startsWith(API_TOKEN_PREFIX)) return undefined;
    const now = this.now();
    const found = await this.tokens.findLive(hashSecret(secret), now);
    if (!found) return undefined;
    // The row read says when it was last written: most requests need no write at all.
    const last = found.lastUsedAt === null ? undefined : Date.parse(found.lastUsedAt);
    if (last === undefined || now.getTime() - last >= API_TOKEN_LAST_USED_EVERY_MS)
      await this.tokens.touchLastUsed(found.tokenId, now, API_TOKEN_LAST_USED_EVERY_MS);
    return {
      id: found.userId,
      username: found.username,
      role: found.role,
      scopes: found.scopes,
      token: { id: found.tokenId, name: found.tokenName, expiresAt: found.expiresAt },
    };
  }
}

function view(record: ApiTokenRecord): ApiToken {
  return {
    id: record.id,
    name: record.name,
    scopes: record.scopes,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    expires_at: record.expiresAt,
  };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
