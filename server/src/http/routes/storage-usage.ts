import { API_ROUTES, type StorageUsage } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Owner } from '../../owner.js';
import { ownerOf } from '../session.js';

/** A signed-in user's own storage use and quota, for the sidebar's bar (issue 29, part 3). */
export const storageUsageRoutes: FastifyPluginAsync<{
  quotas: { usage(owner: Owner): Promise<StorageUsage> };
}> = async (app, { quotas }) => {
  app.get(API_ROUTES.storageUsage, { preHandler: app.requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return quotas.usage(ownerOf(request));
  });
};
