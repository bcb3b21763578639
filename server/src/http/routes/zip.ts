import {
  ZIP_ROUTES,
  ZIP_TOKEN_PATTERN,
  zipDownloadRequestSchema,
  type ZipDownloadProgress,
  type ZipDownloadRequest,
  type ZipDownloadTicket,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Owner } from '../../services/images.js';
import type { OpenResult, PrepareResult } from '../../services/zip-downloads.js';
import { dispositionFileName } from '../content-disposition.js';

/** What the ZIP routes need; the container gives them the ZipDownloads service. */
export interface ZipApi {
  prepare(owner: Owner, request: ZipDownloadRequest): Promise<PrepareResult>;
  progress(owner: Owner, token: string): ZipDownloadProgress | undefined;
  open(owner: Owner, token: string): Promise<OpenResult>;
}

export const ZIP_ROUTE_TEXTS = {
  badRequest: `The request needs the gallery ('ld' or 'hd') and the images' file names`,
  unknownToken: 'No such download',
} as const;

/**
 * Issue 13, feature 10: a selection of the user's images as one ZIP. POST checks the selection
 * and answers a one-time token; GET with the token streams the ZIP as an attachment (the
 * browser's own download, so the browser never holds it whole either); the progress query tells
 * the page how many bytes went out.
 */
export const zipRoutes: FastifyPluginAsync<{ zips: ZipApi }> = async (app, { zips }) => {
  const ownerOf = (user: { userId: number; username: string }): Owner => ({
    id: user.userId,
    username: user.username,
  });

  app.post(ZIP_ROUTES.create, { preHandler: app.requireUser }, async (request, reply) => {
    if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
    // A path in place of a name fails here (the contract's file-name rule): nothing is looked up.
    const body = zipDownloadRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: ZIP_ROUTE_TEXTS.badRequest });
    const result = await zips.prepare(ownerOf(request.user), body.data);
    if (!result.ok) return reply.status(result.status).send({ error: result.error });
    reply.header('cache-control', 'no-store');
    return result.ticket satisfies ZipDownloadTicket;
  });

  app.get<{ Params: { token: string } }>(
    ZIP_ROUTES.progress,
    { preHandler: app.requireUser },
    async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
      const progress = ZIP_TOKEN_PATTERN.test(request.params.token)
        ? zips.progress(ownerOf(request.user), request.params.token)
        : undefined;
      if (!progress) return reply.status(404).send({ error: ZIP_ROUTE_TEXTS.unknownToken });
      reply.header('cache-control', 'no-store');
      return progress;
    },
  );

  app.get<{ Params: { token: string } }>(
    ZIP_ROUTES.file,
    { preHandler: app.requireUser },
    async (request, reply) => {
      if (!request.user) return reply.status(401).send({ error: 'Not signed in' });
      if (!ZIP_TOKEN_PATTERN.test(request.params.token)) {
        return reply.status(404).send({ error: ZIP_ROUTE_TEXTS.unknownToken });
      }
      const result = await zips.open(ownerOf(request.user), request.params.token);
      if (!result.ok) return reply.status(result.status).send({ error: result.error });
      const { zip } = result;
      // 'close' comes after 'finish' when all went out, alone when the browser broke off.
      reply.raw.once('close', () => zip.settle(reply.raw.writableFinished));
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; ${dispositionFileName(zip.filename)}`)
        .header('content-length', zip.total)
        .type('application/zip')
        .send(zip.stream);
    },
  );
};
