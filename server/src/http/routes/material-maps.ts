import {
  API_ROUTES,
  errorText,
  materialMapsOrderSchema,
  materialMapsRequestSchema,
  type MaterialMapsStatus,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { MaterialMapService } from '../../services/material-maps.js';
import { ownerOf } from '../session.js';

/** What the material-maps routes need of their service. */
export type MaterialMapsApi = Pick<MaterialMapService, 'order' | 'status'>;

/**
 * Issue 17, part 5: POST orders an image's material maps (202 and the status; issue 26, part 4:
 * with how the height is read, 409 while the image's job reads it otherwise), GET tells how
 * far they are and which files there are; the files themselves download from
 * /api/images/maps/:filename (routes/images.ts) and as one ZIP (routes/zip.ts, kind 'maps').
 */
export const materialMapRoutes: FastifyPluginAsync<{ materialMaps: MaterialMapsApi }> = async (
  app,
  { materialMaps },
) => {
  app.post(
    API_ROUTES.materialMapsOrder,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const body = materialMapsOrderSchema.safeParse(request.body);
      if (!body.success) {
        // A bad height says what a height must be; any other fault, what the order needs.
        const height = body.error.issues.every((issue) => issue.path[0] === 'height');
        return reply
          .status(400)
          .send({ error: errorText(height ? 'MAPS_HEIGHT_INVALID' : 'MAPS_REQUEST_INVALID') });
      }
      const result = await materialMaps.order(ownerOf(request), body.data);
      if (!result.ok) return reply.status(result.status).send({ error: result.error });
      reply.header('cache-control', 'no-store');
      return reply.status(202).send(result.status satisfies MaterialMapsStatus);
    },
  );

  app.get(
    API_ROUTES.materialMapsStatus,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const query = materialMapsRequestSchema.safeParse(request.query);
      if (!query.success)
        return reply.status(400).send({ error: errorText('MAPS_REQUEST_INVALID') });
      const status = await materialMaps.status(ownerOf(request), query.data);
      if (!status) {
        return reply
          .status(404)
          .send({ error: errorText('ORDERED_IMAGE_NOT_FOUND', query.data.image) });
      }
      reply.header('cache-control', 'no-store');
      return status satisfies MaterialMapsStatus;
    },
  );
};
