import type { FastifyPluginAsync } from 'fastify';
import type { HttpDependencies } from '../app.js';

/** What the web app reads before anything else (SPEC §1), and the health check. */
export const metaRoutes: FastifyPluginAsync<HttpDependencies> = async (app, deps) => {
  app.get('/api/title', () => ({ title: deps.title }));
  app.get('/api/theme', () => ({ theme: deps.theme }));
  app.get('/api/mosquitto/url', (request) => ({
    url: deps.brokerUrlFor({ protocol: request.protocol, host: request.host }),
  }));
  app.get('/api/health', async (request, reply) => {
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
