import { cancelHdJobRequestSchema, type HdJob, type InputImage } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { CancelResult } from '../../services/hd.js';
import type { Owner } from '../../services/images.js';

/** What the queue page and the references library need; server.ts builds it from the services. */
export interface LibraryApi {
  hdJobs(owner: Owner): Promise<HdJob[]>;
  cancelHdJob(owner: Owner, id: string): Promise<CancelResult>;
  inputs(owner: Owner): Promise<InputImage[]>;
}

export const LIBRARY_TEXTS = {
  notQueued: 'Only a queued job can be cancelled',
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

  app.get('/api/query/hd-jobs', { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return { jobs: await library.hdJobs(ownerOf(request.user)) };
  });

  app.post(
    '/api/command/cancel-hd-job',
    { preHandler: app.requireUser },
    async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
      const body = cancelHdJobRequestSchema.safeParse(request.body);
      if (!body.success) return reply.status(400).send({ error: LIBRARY_TEXTS.badRequest });
      const result = await library.cancelHdJob(ownerOf(request.user), body.data.id);
      if (result === 'unknown') return reply.status(404).send({ error: LIBRARY_TEXTS.unknownJob });
      if (result === 'not-queued')
        return reply.status(409).send({ error: LIBRARY_TEXTS.notQueued });
      return {};
    },
  );

  app.get('/api/query/inputs', { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    reply.header('cache-control', 'no-store');
    return { inputs: await library.inputs(ownerOf(request.user)) };
  });
};
