// What one HTTP operation of the API takes and answers, for the OpenAPI document (openapi.ts).
// The tables are api-operations-*.ts; this file holds their shape and the answers they share.
import type { z } from 'zod';
import type { ApiTokenScope } from './api-tokens.js';
import { errorResponseSchema } from './http.js';

/**
 * Who may call: anyone; the signed-in user's session cookie (401 without); an admin's session
 * (401, then 403 for a member); the operator's METRICS_TOKEN as a Bearer token when one is set.
 */
export type ApiAuth = 'none' | 'session' | 'admin' | 'metrics-token';

/**
 * What an API token (issue 30, part 1) may do with an operation: the token scope it needs;
 * 'cookie-only': the browser's session only, a Bearer token is refused (sign-in, the session,
 * token management, the admin API); 'public': no user credential at all (a Bearer header is
 * ignored). The server reads this table to let a token in or not: one home for the mapping.
 */
export type ApiScope = ApiTokenScope | 'cookie-only' | 'public';

/** A body of one media type: JSON or multipart parts described by a schema, files by type only. */
export interface ApiContent {
  contentType: string;
  schema?: z.ZodType;
}

export interface ApiAnswer {
  description: string;
  /** Unset: the answer has no body (204, 304). */
  content?: readonly ApiContent[];
  /** Response headers worth telling (name → what it says). */
  headers?: Readonly<Record<string, string>>;
}

export interface ApiOperation {
  method: 'GET' | 'POST' | 'PUT';
  /** The Fastify template, as in API_ROUTES (`:name` parameters). */
  path: string;
  /** Groups operations on the reference page. */
  tag: string;
  summary: string;
  description?: string;
  auth: ApiAuth;
  /** The API token scope it needs, or cookie-only, or public (ApiScope). */
  scope: ApiScope;
  /** The query string's fields. */
  query?: z.ZodObject;
  body?: ApiContent;
  /** Each status this operation answers; the auth statuses (401, 403) are added from `auth`. */
  responses: Readonly<Record<number, ApiAnswer>>;
  /** SPEC §7 defines this call: its shapes are the spec's. */
  inSpec?: boolean;
}

export const JSON_TYPE = 'application/json';

/** A JSON answer of this schema. */
export function json(schema: z.ZodType, description: string, headers?: ApiAnswer['headers']) {
  return {
    description,
    content: [{ contentType: JSON_TYPE, schema }],
    ...(headers && { headers }),
  };
}

/** A refusal: the server's `{ error }` body, its text from the contract (errors.ts, texts.ts). */
export function refusal(description: string): ApiAnswer {
  return json(errorResponseSchema, description);
}

/** A file answer of one of these media types (its bytes are not described). */
export function fileAnswer(
  contentTypes: readonly string[],
  description: string,
  headers?: ApiAnswer['headers'],
): ApiAnswer {
  return {
    description,
    content: contentTypes.map((contentType) => ({ contentType })),
    ...(headers && { headers }),
  };
}

export const JSON_BODY = (schema: z.ZodType): ApiContent => ({ contentType: JSON_TYPE, schema });

/** The invalid-request refusal most commands answer. */
export const BAD_REQUEST = refusal('The request does not have the shape this operation takes.');

/** What the auth statuses say; the generator adds them to every guarded operation. */
export const AUTH_REFUSALS = {
  401: refusal('Not signed in: no session cookie, or it expired or was ended.'),
  403: refusal('Signed in, but not as an admin; or an API token, which the admin API refuses.'),
} as const;

/** What a guarded operation answers a Bearer token it does not take (added by the generator). */
export const TOKEN_REFUSALS = {
  401: refusal(
    'Not signed in: no session cookie or API token, or it expired, was ended or was revoked.',
  ),
  403: refusal('The API token lacks the scope this operation needs.'),
  cookieOnly: refusal('An API token was sent: this operation takes the session cookie only.'),
} as const;
