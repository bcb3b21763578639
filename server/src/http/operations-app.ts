import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import Fastify, { LogController } from 'fastify';
import { operationsRoutes, type OperationsOptions } from './operations.js';
import { healthRoute, type HealthDependencies } from './routes/meta.js';

/**
 * A small listener for operators' tools only: /api/health, /api/ready and /metrics. A worker's
 * health port (HEALTH_PORT: it has no other HTTP), and METRICS_PORT's listener, where /metrics
 * needs no token (a private network).
 */
export async function buildOperationsApp(
  deps: HealthDependencies & OperationsOptions & { logger: FastifyBaseLogger },
): Promise<FastifyInstance> {
  // Probes come every few seconds: their lines would drown the log.
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(healthRoute, deps);
  await app.register(operationsRoutes, deps);
  return app;
}
