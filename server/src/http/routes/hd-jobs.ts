import {
  API_ROUTES,
  cancelHdJobRequestSchema,
  errorText,
  moveHdJobRequestSchema,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { HdService } from '../../services/hd.js';
import type { ReferenceService } from '../../services/references.js';
import { ownerOf } from '../session.js';

/** What the queue page needs of the HD service. */
export type HdQueueApi = Pick<HdService, 'list' | 'cancel' | 'moveToTop' | 'pause' | 'resume'>;

/** What the references library needs of its service. */
export type ReferencesApi = Pick<ReferenceService, 'list'>;

/** Beyond the spec: the HD queue (/upscale) and the references library (/input). */
export const libraryRoutes: FastifyPluginAsync<{
  hdQueue: HdQueueApi;
  references: ReferencesApi;
}> = async (app, { hdQueue, references }) => {
  app.get(API_ROUTES.hdJobs, { preHandler: app.requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return hdQueue.list(ownerOf(request));
  });

  app.post(API_ROUTES.cancelHdJob, { preHandler: app.requireUser }, async (request, reply) => {
    const body = cancelHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('HD_JOB_ID_MISSING') });
    const result = await hdQueue.cancel(ownerOf(request), body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: errorText('HD_JOB_UNKNOWN') });
    if (result === 'not-queued')
      return reply.status(409).send({ error: errorText('HD_JOB_NOT_QUEUED') });
    return {};
  });

  // The queue commands answer with the queue as it now is, so the page shows it without a
  // second request (and without guessing the new order).
  app.post(API_ROUTES.moveHdJobToTop, { preHandler: app.requireUser }, async (request, reply) => {
    const body = moveHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('HD_JOB_ID_MISSING') });
    const owner = ownerOf(request);
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
      const owner = ownerOf(request);
      await (paused ? hdQueue.pause(owner) : hdQueue.resume(owner));
      reply.header('cache-control', 'no-store');
      return hdQueue.list(owner);
    });
  }

  app.get(API_ROUTES.inputs, { preHandler: app.requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { inputs: await references.list(ownerOf(request)) };
  });
};
