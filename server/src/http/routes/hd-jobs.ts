import {
  cancelHdJobRequestSchema,
  HD_QUEUE_ROUTES,
  moveHdJobRequestSchema,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { HdService } from '../../services/hd.js';
import type { Owner } from '../../services/images.js';
import type { ReferenceService } from '../../services/references.js';

/** What the queue page needs of the HD service. */
export type HdQueueApi = Pick<HdService, 'list' | 'cancel' | 'moveToTop' | 'pause' | 'resume'>;

/** What the references library needs of its service. */
export type ReferencesApi = Pick<ReferenceService, 'list'>;

export const LIBRARY_TEXTS = {
  notQueued: 'Only a queued job can be cancelled',
  notQueuedToMove: 'Only a queued job can be moved',
  unknownJob: 'No such job',
  badRequest: 'The request needs the job id',
} as const;

/** Beyond the spec: the HD queue (/upscale) and the references library (/input). */
export const libraryRoutes: FastifyPluginAsync<{
  hdQueue: HdQueueApi;
  references: ReferencesApi;
}> = async (app, { hdQueue, references }) => {
  const ownerOf = (user: { userId: number; username: string }): Owner => ({
    id: user.userId,
    username: user.username,
  });

  app.get(HD_QUEUE_ROUTES.jobs, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return hdQueue.list(ownerOf(request.user));
  });

  app.post(HD_QUEUE_ROUTES.cancel, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    const body = cancelHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: LIBRARY_TEXTS.badRequest });
    const result = await hdQueue.cancel(ownerOf(request.user), body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: LIBRARY_TEXTS.unknownJob });
    if (result === 'not-queued') return reply.status(409).send({ error: LIBRARY_TEXTS.notQueued });
    return {};
  });

  // The queue commands answer with the queue as it now is, so the page shows it without a
  // second request (and without guessing the new order).
  app.post(HD_QUEUE_ROUTES.moveToTop, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    const body = moveHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: LIBRARY_TEXTS.badRequest });
    const owner = ownerOf(request.user);
    const result = await hdQueue.moveToTop(owner, body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: LIBRARY_TEXTS.unknownJob });
    if (result === 'not-queued')
      return reply.status(409).send({ error: LIBRARY_TEXTS.notQueuedToMove });
    reply.header('cache-control', 'no-store');
    return hdQueue.list(owner);
  });

  for (const [path, paused] of [
    [HD_QUEUE_ROUTES.pause, true],
    [HD_QUEUE_ROUTES.resume, false],
  ] as const) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
      const owner = ownerOf(request.user);
      await (paused ? hdQueue.pause(owner) : hdQueue.resume(owner));
      reply.header('cache-control', 'no-store');
      return hdQueue.list(owner);
    });
  }

  app.get('/api/query/inputs', { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return { inputs: await references.list(ownerOf(request.user)) };
  });
};
