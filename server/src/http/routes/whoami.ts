import { API_ROUTES, type WhoamiAnswer } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ownerOf } from '../session.js';

/**
 * Who the caller is (issue 30, part 1): a script checks its token (whose user, which scopes,
 * until when) before it starts. With the session cookie, the user and no token.
 */
export const whoamiRoutes: FastifyPluginAsync = async (app) => {
  app.get(API_ROUTES.whoami, { preHandler: app.requireUser }, (request, reply) => {
    const token = request.apiToken;
    const answer: WhoamiAnswer = {
      username: ownerOf(request).username,
      role: request.role ?? 'member',
      token: token && {
        id: token.id,
        name: token.name,
        scopes: [...token.scopes],
        expires_at: token.expiresAt,
      },
    };
    reply.header('cache-control', 'no-store');
    return Promise.resolve(answer);
  });
};
