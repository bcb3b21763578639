import { API_ROUTES, type EngineInfoResponse, type PreviewEngine } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Issue 27: the engine previews are made with, which the Generate screen's help and prompt chips
 * depend on. The root gives the name (the composed engine's); signed-in users only, like every
 * other query.
 */
export const engineRoutes: FastifyPluginAsync<{ previewEngine: PreviewEngine }> = async (
  app,
  { previewEngine },
) => {
  app.get(API_ROUTES.engineInfo, { preHandler: app.requireUser }, () => {
    const answer: EngineInfoResponse = { preview: previewEngine };
    return answer;
  });
};
