import {
  API_ROUTES,
  createApiTokenRequestSchema,
  errorText,
  revokeApiTokenRequestSchema,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ApiTokenService } from '../../services/api-tokens.js';
import type { Actor } from '../../services/audit.js';
import { ServiceError } from '../../services/errors.js';
import { ownerOf } from '../session.js';

/** What the tokens screen needs of the token service. */
export type ApiTokensApi = Pick<ApiTokenService, 'create' | 'list' | 'revoke'>;

function actorOf(request: FastifyRequest): Actor {
  return { name: ownerOf(request).username, address: request.ip };
}

/**
 * Personal API tokens (issue 30, part 1), the signed-in user's own. These take the session
 * cookie only (their operations' scope is cookie-only): a token cannot make or keep tokens.
 */
export const apiTokenRoutes: FastifyPluginAsync<{ tokens: ApiTokensApi }> = async (
  app,
  { tokens },
) => {
  app.get(API_ROUTES.apiTokens, { preHandler: app.requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { tokens: await tokens.list(ownerOf(request)) };
  });

  app.post(API_ROUTES.createApiToken, { preHandler: app.requireUser }, async (request, reply) => {
    const body = createApiTokenRequestSchema.safeParse(request.body);
    if (!body.success)
      return reply.status(400).send({ error: errorText('API_TOKEN_REQUEST_INVALID') });
    try {
      const made = await tokens.create(ownerOf(request), body.data, actorOf(request));
      // The secret is in this answer only: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(made);
    } catch (err) {
      if (err instanceof ServiceError) return reply.status(409).send({ error: err.message });
      throw err;
    }
  });

  app.post(API_ROUTES.revokeApiToken, { preHandler: app.requireUser }, async (request, reply) => {
    const body = revokeApiTokenRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('API_TOKEN_UNKNOWN') });
    const revoked = await tokens.revoke(ownerOf(request), body.data.id, actorOf(request));
    if (!revoked) return reply.status(404).send({ error: errorText('API_TOKEN_UNKNOWN') });
    return {};
  });
};
