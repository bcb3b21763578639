import { errorText, SESSION_COOKIE } from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Owner } from '../owner.js';
import type { AuthService } from '../services/auth.js';

// The cookie's name is the contract's: the OpenAPI document tells it to clients.
export { SESSION_COOKIE };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by `requireUser`. Routes read it through `ownerOf(request)`. */
    owner: Owner | null;
    /** The signed-in user's role, set with `owner` (issue 29). */
    role: 'admin' | 'member' | null;
  }
}

/** Adds `app.requireUser`, the preHandler that guards every /api route but the public ones. */
const plugin: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  app.decorateRequest('owner', null);
  app.decorateRequest('role', null);
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const owner = await auth.sessionUser(request.cookies[SESSION_COOKIE]);
    if (!owner) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    request.owner = { id: owner.id, username: owner.username };
    request.role = owner.role;
  });
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
