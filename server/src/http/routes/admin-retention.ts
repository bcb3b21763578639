import { API_ROUTES, errorText, RETENTION_RUNS_SHOWN } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { HdRetentionService, RetentionPlan } from '../../services/hd-retention.js';
import { ownerOf } from '../session.js';

/** What the admin screen's retention tab uses of the policy (issue 29, part 4). */
export type AdminRetentionApi = Pick<
  HdRetentionService,
  'days' | 'enabled' | 'plan' | 'run' | 'recentRuns'
>;

/** A plan's items as the contract shows them: the bytes an item frees, with its derivatives. */
function itemsOf(plan: RetentionPlan) {
  return plan.items.map(({ owner, filename, bytes, derivedBytes, createdAt }) => ({
    owner,
    filename,
    bytes: bytes + derivedBytes,
    createdAt,
  }));
}

/**
 * The retention tab's API (contract/admin-retention.ts). Registered inside the admin plugin, so
 * its guard (401 without a session, 403 for a member) covers these routes too.
 */
export const adminRetentionRoutes: FastifyPluginAsync<{ retention: AdminRetentionApi }> = async (
  app,
  { retention },
) => {
  app.get(API_ROUTES.adminRetention, async () => {
    const plan = await retention.plan(new Date());
    const runs = await retention.recentRuns(RETENTION_RUNS_SHOWN);
    return {
      days: retention.days,
      cutoff: plan.cutoff,
      items: itemsOf(plan),
      bytes: plan.bytes,
      runs,
    };
  });

  app.post(API_ROUTES.adminRetentionRun, async (request, reply) => {
    if (!retention.enabled) return reply.status(409).send({ error: errorText('RETENTION_OFF') });
    const done = await retention.run(new Date(), {
      name: ownerOf(request).username,
      address: request.ip,
    });
    return { cutoff: done.cutoff, items: itemsOf(done), bytes: done.bytes };
  });
};
