import { bearerCredential, errorText, SESSION_COOKIE } from '@tessera/contract';
import { API_OPERATIONS, type ApiScope } from '@tessera/contract/openapi';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Owner } from '../owner.js';
import type { ApiTokenAuthenticator, TokenUser } from '../services/api-tokens.js';
import type { AuthService } from '../services/auth.js';

// The cookie's name is the contract's: the OpenAPI document tells it to clients.
export { SESSION_COOKIE };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by `requireUser`. Routes read it through `ownerOf(request)`. */
    owner: Owner | null;
    /** The signed-in user's role, set with `owner` (issue 29). */
    role: 'admin' | 'member' | null;
    /** The API token a Bearer request acts with, set with `owner`; null for the session cookie. */
    apiToken: ApiTokenOfRequest | null;
  }
}

/** The token of a Bearer request: what whoami tells of it. */
export type ApiTokenOfRequest = TokenUser['token'] & { scopes: TokenUser['scopes'] };

/** Each operation's scope by `METHOD template` (HEAD is GET's): the contract's one table. */
const SCOPES = new Map<string, ApiScope>(
  API_OPERATIONS.map(({ method, path, scope }) => [`${method} ${path}`, scope]),
);

/** The scope the contract gives this request's route; undefined: no operation of the table. */
function scopeOf(request: FastifyRequest): ApiScope | undefined {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return SCOPES.get(`${method} ${request.routeOptions.url ?? ''}`);
}

/** Methods that only read: static pages and files a Bearer header cannot hurt. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Adds `app.requireUser`, the preHandler that guards every /api route but the public ones. A
 * request with `Authorization: Bearer` is judged by its API token alone, never by a cookie
 * (issue 30, part 1): it acts as the token's owner, on the operations its scopes allow.
 */
const plugin: FastifyPluginAsync<{ auth: AuthService; tokens: ApiTokenAuthenticator }> = async (
  app,
  { auth, tokens },
) => {
  app.decorateRequest('owner', null);
  app.decorateRequest('role', null);
  app.decorateRequest('apiToken', null);
  // Before any handler (login and logout have no requireUser): a cookie-only route refuses a
  // token whatever else the request carries, and so does a change no operation describes.
  app.addHook('onRequest', async (request, reply) => {
    if (bearerCredential(request.headers.authorization) === undefined) return;
    const scope = scopeOf(request);
    if (scope === 'cookie-only' || (scope === undefined && !SAFE_METHODS.has(request.method)))
      return reply.status(403).send({ error: errorText('API_TOKEN_NOT_ACCEPTED') });
  });
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const bearer = bearerCredential(request.headers.authorization);
    if (bearer !== undefined) return tokenUser(request, reply, bearer);
    const owner = await auth.sessionUser(request.cookies[SESSION_COOKIE]);
    if (!owner) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    request.owner = { id: owner.id, username: owner.username };
    request.role = owner.role;
  });
  async function tokenUser(request: FastifyRequest, reply: FastifyReply, secret: string) {
    const user = await tokens.authenticate(secret);
    if (!user) return reply.status(401).send({ error: errorText('API_TOKEN_INVALID') });
    const scope = scopeOf(request);
    // Unknown to the table, or public (a guarded route should not be): deny by default.
    if (scope === undefined || scope === 'cookie-only' || scope === 'public')
      return reply.status(403).send({ error: errorText('API_TOKEN_NOT_ACCEPTED') });
    if (!user.scopes.includes(scope))
      return reply.status(403).send({ error: errorText('API_TOKEN_SCOPE_MISSING', scope) });
    request.owner = { id: user.id, username: user.username };
    request.role = user.role;
    request.apiToken = { ...user.token, scopes: user.scopes };
  }
  // After requireUser: every /api/admin route has both (http/routes/admin-users.ts).
  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.role !== 'admin') return reply.status(403).send({ error: errorText('ADMIN_ONLY') });
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  }
}

/**
 * The signed-in user of a route guarded by `requireUser` (which answers 401 before the handler
 * runs when there is none). Called on a route without the guard, it throws: a programming error.
 */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw new Error(`${request.url}: ownerOf without the requireUser preHandler`);
  return request.owner;
}

export const sessionHook = fp(plugin, { name: 'tessera-session' });
