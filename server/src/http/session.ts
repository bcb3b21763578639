import { errorText } from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthService, SessionUser } from '../services/auth.js';

export const SESSION_COOKIE = 'tessera_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set on every route that requires a session. */
    user: SessionUser | null;
  }
}

/** Adds `app.requireUser`, the preHandler that guards every /api route but the public ones. */
const plugin: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  app.decorateRequest('user', null);
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await auth.sessionUser(request.cookies[SESSION_COOKIE]);
    if (!user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    request.user = user;
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  }
}

export const sessionHook = fp(plugin, { name: 'tessera-session' });
