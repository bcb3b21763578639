import {
  cancelHdJobRequestSchema,
  HD_QUEUE_ROUTES,
  moveHdJobRequestSchema,
  type HdJobsResponse,
  type InputImage,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { CancelResult, MoveResult } from '../../services/hd.js';
import type { Owner } from '../../services/images.js';

/** What the queue page and the references library need; server.ts builds it from the services. */
export interface LibraryApi {
  hdJobs(owner: Owner): Promise<HdJobsResponse>;
  cancelHdJob(owner: Owner, id: string): Promise<CancelResult>;
  moveHdJobToTop(owner: Owner, id: string): Promise<MoveResult>;
  setHdQueuePaused(owner: Owner, paused: boolean): Promise<void>;
  inputs(owner: Owner): Promise<InputImage[]>;
}

export const LIBRARY_TEXTS = {
  notQueued: 'Only a queued job can be cancelled',
  notQueuedToMove: 'Only a queued job can be moved',
  unknownJob: 'No such job',
  badRequest: 'The request needs the job id',
} as const;

/** Beyond the spec: the HD queue (/upscale) and the references library (/input). */
export const libraryRoutes: FastifyPluginAsync<{ library: LibraryApi }> = async (
  app,
  { library },
) => {
  const ownerOf = (user: { userId: number; username: string }): Owner => ({
    id: user.userId,
    username: user.username,
  });

  app.get(HD_QUEUE_ROUTES.jobs, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return library.hdJobs(ownerOf(request.user));
  });

  app.post(HD_QUEUE_ROUTES.cancel, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    const body = cancelHdJobRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: LIBRARY_TEXTS.badRequest });
    const result = await library.cancelHdJob(ownerOf(request.user), body.data.id);
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
    const result = await library.moveHdJobToTop(owner, body.data.id);
    if (result === 'unknown') return reply.status(404).send({ error: LIBRARY_TEXTS.unknownJob });
    if (result === 'not-queued')
      return reply.status(409).send({ error: LIBRARY_TEXTS.notQueuedToMove });
    reply.header('cache-control', 'no-store');
    return library.hdJobs(owner);
  });

  for (const [path, paused] of [
    [HD_QUEUE_ROUTES.pause, true],
    [HD_QUEUE_ROUTES.resume, false],
  ] as const) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
      const owner = ownerOf(request.user);
      await library.setHdQueuePaused(owner, paused);
      reply.header('cache-control', 'no-store');
      return library.hdJobs(owner);
    });
  }

  app.get('/api/query/inputs', { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return { inputs: await library.inputs(ownerOf(request.user)) };
  });
};
