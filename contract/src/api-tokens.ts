// Personal API tokens (issue 30, part 1): what a user makes on the tokens screen and what a
// script sends as `Authorization: Bearer <secret>`. Which token scope each HTTP operation needs
// is the operation table's `scope` (api-operation.ts).
import { z } from 'zod';

/**
 * read: the GET routes of the user's own data; generate: previews, HD orders, material maps,
 * print files; manage: changing and deleting the user's things (tags, stars, image deletions).
 */
export const API_TOKEN_SCOPES = ['read', 'generate', 'manage'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every secret starts so: secret scanners (and people) can tell a leaked one at a glance. */
export const API_TOKEN_PREFIX = 'tsr_';

/** The lifetimes offered, in days; null: the token never expires (until revoked). */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export const DEFAULT_API_TOKEN_EXPIRY_DAYS = 90;
export const API_TOKEN_NAME_MAX = 64;
/** Live tokens one user may hold at once (a leak is easier to find among few). */
export const MAX_API_TOKENS_PER_USER = 50;
/** A token's "last used" is written at most this often: a write per request would not do. */
export const API_TOKEN_LAST_USED_EVERY_MS = 5 * 60 * 1000;

/** The tokens screen, reached from the sidebar's account links. */
export const API_TOKENS_SCREEN_PATH = '/account/tokens';

const scopeSchema = z.enum(API_TOKEN_SCOPES);

/** One token as its owner sees it: never its secret, which is shown once, at creation. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  created_at: z.string(),
  /** When a request last used it (to within API_TOKEN_LAST_USED_EVERY_MS); null: never. */
  last_used_at: z.string().nullable(),
  /** null: it never expires. */
  expires_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** GET /api/query/api-tokens: the user's tokens, newest first (expired ones too, marked by date). */
export const apiTokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type ApiTokensResponse = z.infer<typeof apiTokensResponseSchema>;

/** POST /api/command/create-api-token. */
export const createApiTokenRequestSchema = z.object({
  name: z.string().trim().min(1).max(API_TOKEN_NAME_MAX),
  /** At least one; each once. */
  scopes: z
    .array(scopeSchema)
    .min(1)
    .max(API_TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once'),
  /** One of API_TOKEN_EXPIRY_DAYS, or null for no expiry. */
  expires_in_days: z.union([z.literal(API_TOKEN_EXPIRY_DAYS), z.null()]),
});
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequestSchema>;

/** The token made, and its secret: shown this once, never stored (only its SHA-256 is). */
export const createApiTokenResponseSchema = z.object({
  token: apiTokenSchema,
  secret: z.string().startsWith(API_TOKEN_PREFIX),
});
export type CreateApiTokenResponse = z.infer<typeof createApiTokenResponseSchema>;

/** POST /api/command/revoke-api-token: the token stops working at once. */
export const revokeApiTokenRequestSchema = z.object({ id: z.number().int().positive() });
export type RevokeApiTokenRequest = z.infer<typeof revokeApiTokenRequestSchema>;

/**
 * The credential of an `Authorization` header when it is a Bearer token; undefined for no header
 * or another scheme. An empty token is '' (a Bearer request all the same, refused as such).
 */
export function bearerCredential(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  // Anything after the scheme is the credential, however malformed: such a request is still
  // judged as a Bearer request (refused), never by a cookie it may also carry.
  const match = /^Bearer(?:\s+(.*))?$/is.exec(header);
  return match ? (match[1] ?? '').trim() : undefined;
}
