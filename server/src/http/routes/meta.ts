import { API_ROUTES } from '@tessera/contract';
import type { HealthResponse } from '@tessera/contract/openapi';
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
  await app.register(healthRoute, deps);
};

/** What GET /api/health needs: the database's check and the engine's state. */
export type HealthDependencies = Pick<HttpDependencies, 'healthCheck' | 'engineHealth'>;

/** Alive: the process answers and its database does; also on a worker's health port. */
export const healthRoute: FastifyPluginAsync<HealthDependencies> = async (app, deps) => {
  app.get(API_ROUTES.health, async (request, reply) => {
    try {
      await deps.healthCheck();
      const engine = await deps.engineHealth?.();
      // An engine with no server to take work leaves the site usable (galleries, tags): degraded.
      const answer: HealthResponse = engine
        ? { status: engine.ok ? 'ok' : 'degraded', engine }
        : { status: 'ok' };
      return answer;
    } catch (err) {
      request.log.error({ err }, 'health check failed');
      return reply.status(503).send({ status: 'unavailable' } satisfies HealthResponse);
    }
  });
};
