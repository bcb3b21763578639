import { API_ROUTES, errorText, materialPackageQuerySchema } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { MaterialPackageService } from '../../services/material-package.js';
import { sendZipAttachment } from '../zip-attachment.js';
import { ownerOf } from '../session.js';

/** What the material-package route needs of its service. */
export type MaterialPackageApi = Pick<MaterialPackageService, 'open'>;

/**
 * Issue 26, part 3: GET streams an image's material package as a ZIP attachment, which the
 * browser saves itself (a plain link: nothing is held in the tab). Refusals are JSON with the
 * contract's text, before any file is made.
 */
export const materialPackageRoutes: FastifyPluginAsync<{ packages: MaterialPackageApi }> = async (
  app,
  { packages },
) => {
  app.get(API_ROUTES.materialPackage, { preHandler: app.requireUser }, async (request, reply) => {
    const query = materialPackageQuerySchema.safeParse(request.query);
    if (!query.success) {
      return reply.status(400).send({ error: errorText('MATERIAL_PACKAGE_REQUEST_INVALID') });
    }
    // The client may leave while the files are made (seconds for an HD image): stop then.
    const left = new AbortController();
    reply.raw.once('close', () => left.abort());
    const gone = () => {
      // Nobody is there to answer: the response is dropped as the connection was.
      reply.hijack();
      reply.raw.destroy();
      return reply;
    };
    let result;
    try {
      result = await packages.open(ownerOf(request), query.data, left.signal);
    } catch (err) {
      if (left.signal.aborted) return gone();
      throw err;
    }
    if (!result.ok) return reply.status(result.status).send({ error: result.error });
    const { zip } = result;
    if (left.signal.aborted) {
      zip.close();
      return gone();
    }
    reply.raw.once('close', () => zip.close());
    return sendZipAttachment(reply, zip);
  });
};
