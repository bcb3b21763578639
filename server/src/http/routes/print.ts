import {
  API_ROUTES,
  errorText,
  printEstimateQuerySchema,
  printFilesQuerySchema,
  printOrderSchema,
  type PrintEstimate,
  type PrintFile,
  type PrintFilesResponse,
  type PrintProfilesResponse,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { PrintFileService, PrintResult } from '../../services/print-files.js';
import { ownerOf } from '../session.js';

/** What the print routes need of their service. */
export type PrintFilesApi = Pick<PrintFileService, 'listProfiles' | 'estimate' | 'order' | 'list'>;

/** The answer's value, or its refusal with the contract's text; never kept by a cache. */
function send<T>(reply: FastifyReply, result: PrintResult<T>, status = 200) {
  reply.header('cache-control', 'no-store');
  if (!result.ok) return reply.status(result.status).send({ error: result.error });
  return reply.status(status).send(result.value);
}

const invalid = (reply: FastifyReply) =>
  reply.status(400).send({ error: errorText('PRINT_REQUEST_INVALID') });

/**
 * Issue 26, part 1: the colour profiles, a print file's size before it is made, the order (a job,
 * 202), and an HD image's print files with their jobs. The files themselves download from
 * API_ROUTES.printFile (routes/images.ts, the owner's `print` area).
 */
export const printRoutes: FastifyPluginAsync<{ printFiles: PrintFilesApi }> = async (
  app,
  { printFiles },
) => {
  app.get(API_ROUTES.printProfiles, { preHandler: app.requireUser }, async (_request, reply) =>
    send(reply, {
      ok: true,
      value: (await printFiles.listProfiles()) satisfies PrintProfilesResponse,
    }),
  );

  app.get(API_ROUTES.printEstimate, { preHandler: app.requireUser }, async (request, reply) => {
    const query = printEstimateQuerySchema.safeParse(request.query);
    if (!query.success) return invalid(reply);
    const result: PrintResult<PrintEstimate> = await printFiles.estimate(
      ownerOf(request),
      query.data,
    );
    return send(reply, result);
  });

  app.post(API_ROUTES.printOrder, { preHandler: app.requireUser }, async (request, reply) => {
    const body = printOrderSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    const result: PrintResult<PrintFile> = await printFiles.order(ownerOf(request), body.data);
    return send(reply, result, 202);
  });

  app.get(API_ROUTES.printFiles, { preHandler: app.requireUser }, async (request, reply) => {
    const query = printFilesQuerySchema.safeParse(request.query);
    if (!query.success) return invalid(reply);
    const result: PrintResult<PrintFilesResponse> = await printFiles.list(
      ownerOf(request),
      query.data.image,
    );
    return send(reply, result);
  });
};
