import {
  API_ROUTES,
  errorText,
  ZIP_TOKEN_PATTERN,
  zipDownloadRequestSchema,
  type ZipDownloadProgress,
  type ZipDownloadRequest,
  type ZipDownloadTicket,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Owner } from '../../owner.js';
import type { OpenResult, PrepareResult } from '../../services/zip-downloads.js';
import { sendZipAttachment } from '../zip-attachment.js';
import { ownerOf } from '../session.js';

/** What the ZIP routes need; the container gives them the ZipDownloads service. */
export interface ZipApi {
  prepare(owner: Owner, request: ZipDownloadRequest): Promise<PrepareResult>;
  progress(owner: Owner, token: string): Promise<ZipDownloadProgress | undefined>;
  open(owner: Owner, token: string): Promise<OpenResult>;
}

/**
 * Issue 13, feature 10: a selection of the user's images as one ZIP. POST checks the selection
 * and answers a one-time token; GET with the token streams the ZIP as an attachment (the
 * browser's own download, so the browser never holds it whole either); the progress query tells
 * the page how many bytes went out.
 */
export const zipRoutes: FastifyPluginAsync<{ zips: ZipApi }> = async (app, { zips }) => {
  app.post(API_ROUTES.zipCreate, { preHandler: app.requireUser }, async (request, reply) => {
    // A path in place of a name fails here (the contract's file-name rule): nothing is looked up.
    const body = zipDownloadRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('ZIP_REQUEST_INVALID') });
    const result = await zips.prepare(ownerOf(request), body.data);
    if (!result.ok) return reply.status(result.status).send({ error: result.error });
    reply.header('cache-control', 'no-store');
    return result.ticket satisfies ZipDownloadTicket;
  });

  app.get<{ Params: { token: string } }>(
    API_ROUTES.zipProgress,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const progress = ZIP_TOKEN_PATTERN.test(request.params.token)
        ? await zips.progress(ownerOf(request), request.params.token)
        : undefined;
      if (!progress) return reply.status(404).send({ error: errorText('ZIP_UNKNOWN_TOKEN') });
      reply.header('cache-control', 'no-store');
      return progress;
    },
  );

  app.get<{ Params: { token: string } }>(
    API_ROUTES.zipFile,
    { preHandler: app.requireUser },
    async (request, reply) => {
      if (!ZIP_TOKEN_PATTERN.test(request.params.token)) {
        return reply.status(404).send({ error: errorText('ZIP_UNKNOWN_TOKEN') });
      }
      const result = await zips.open(ownerOf(request), request.params.token);
      if (!result.ok) return reply.status(result.status).send({ error: result.error });
      const { zip } = result;
      // 'close' comes after 'finish' when all went out, alone when the browser broke off.
      reply.raw.once('close', () => zip.settle(reply.raw.writableFinished));
      return sendZipAttachment(reply, zip);
    },
  );
};
