import { API_ROUTES } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { HttpDependencies } from '../app.js';

/** What the web app reads before anything else (SPEC §1), and the health check. */
export const metaRoutes: FastifyPluginAsync<HttpDependencies> = async (app, deps) => {
  app.get(API_ROUTES.title, () => ({ title: deps.title }));
  app.get(API_ROUTES.theme, () => ({ theme: deps.theme }));
  // SPEC §7's url, and the protocol version the broker speaks (an addition the client may miss).
  app.get(API_ROUTES.brokerUrl, (request) => ({
    url: deps.brokerUrlFor({ protocol: request.protocol, host: request.host }),
    protocolVersion: deps.brokerProtocolVersion,
  }));
  app.get(API_ROUTES.health, async (request, reply) => {
    try {
      await deps.healthCheck();
      const engine = await deps.engineHealth?.();
      // An engine with no server to take work leaves the site usable (galleries, tags): degraded.
      return engine ? { status: engine.ok ? 'ok' : 'degraded', engine } : { status: 'ok' };
    } catch (err) {
      request.log.error({ err }, 'health check failed');
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
