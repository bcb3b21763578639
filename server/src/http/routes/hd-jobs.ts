import {
  API_ROUTES,
  cancelHdJobRequestSchema,
  errorText,
  moveHdJobRequestSchema,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { HdService } from '../../services/hd.js';
import type { Owner } from '../../owner.js';
import type { ReferenceService } from '../../services/references.js';

/** What the queue page needs of the HD service. */
export type HdQueueApi = Pick<HdService, 'list' | 'cancel' | 'moveToTop' | 'pause' | 'resume'>;

/** What the references library needs of its service. */
export type ReferencesApi = Pick<ReferenceService, 'list'>;

/** Beyond the spec: the HD queue (/upscale) and the references library (/input). */
export const libraryRoutes: FastifyPluginAsync<{
  hdQueue: HdQueueApi;
  references: ReferencesApi;
}> = async (app, { hdQueue, references }) => {
  const ownerOf = (user: { userId: number; username: string }): Owner => ({
    id: user.userId,
    username: user.username,
  });

  app.get(API_ROUTES.hdJobs, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    reply.header('cache-control', 'no-store');
    return hdQueue.list(ownerOf(request.user));
  });

  app.post(API_ROUTES.cancelHdJob, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    const body = cancelHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('HD_JOB_ID_MISSING') });
    const result = await hdQueue.cancel(ownerOf(request.user), body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: errorText('HD_JOB_UNKNOWN') });
    if (result === 'not-queued')
      return reply.status(409).send({ error: errorText('HD_JOB_NOT_QUEUED') });
    return {};
  });

  // The queue commands answer with the queue as it now is, so the page shows it without a
  // second request (and without guessing the new order).
  app.post(API_ROUTES.moveHdJobToTop, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    const body = moveHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('HD_JOB_ID_MISSING') });
    const owner = ownerOf(request.user);
    const result = await hdQueue.moveToTop(owner, body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: errorText('HD_JOB_UNKNOWN') });
    if (result === 'not-queued')
      return reply.status(409).send({ error: errorText('HD_JOB_NOT_QUEUED_TO_MOVE') });
    reply.header('cache-control', 'no-store');
    return hdQueue.list(owner);
  });

  for (const [path, paused] of [
    [API_ROUTES.pauseHdQueue, true],
    [API_ROUTES.resumeHdQueue, false],
  ] as const) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
      const owner = ownerOf(request.user);
      await (paused ? hdQueue.pause(owner) : hdQueue.resume(owner));
      reply.header('cache-control', 'no-store');
      return hdQueue.list(owner);
    });
  }

  app.get(API_ROUTES.inputs, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: errorText('NOT_SIGNED_IN') });
    reply.header('cache-control', 'no-store');
    return { inputs: await references.list(ownerOf(request.user)) };
  });
};
