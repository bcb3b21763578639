import { createHash, timingSafeEqual } from 'node:crypto';
import { API_ROUTES, errorText, METRICS_PATH } from '@tessera/contract';
import type { ReadinessResponse } from '@tessera/contract/openapi';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Metrics } from '../runtime/metrics.js';

/** What GET /api/ready answers: ready, or which dependencies fail, or stopping (draining). */
export type Readiness = ReadinessResponse;

/** The metrics in Prometheus' text format, and who may read them. */
export interface MetricsEndpoint {
  /** Unset: anyone who reaches the listener (METRICS_PORT, a private network). */
  token?: string;
  contentType: string;
  render(): Promise<string>;
}

export interface OperationsOptions {
  readiness?: () => Promise<Readiness>;
  /** Unset: /metrics answers 404 (neither METRICS_TOKEN nor this listener's METRICS_PORT). */
  metricsEndpoint?: MetricsEndpoint;
}

/** GET /api/ready for load balancers and orchestrators, and GET /metrics for Prometheus. */
export const operationsRoutes: FastifyPluginAsync<OperationsOptions> = async (app, options) => {
  app.get(API_ROUTES.ready, async (_request, reply) => {
    const readiness: Readiness = options.readiness
      ? await options.readiness()
      : { status: 'ready' };
    return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
  });

  const endpoint = options.metricsEndpoint;
  app.get(METRICS_PATH, async (request, reply) => {
    if (!endpoint) return reply.status(404).send({ error: errorText('NOT_FOUND') });
    if (
      endpoint.token !== undefined &&
      !bearerMatches(request.headers.authorization, endpoint.token)
    ) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: errorText('METRICS_TOKEN_REQUIRED') });
    }
    return reply
      .header('content-type', endpoint.contentType)
      .header('cache-control', 'no-store')
      .send(await endpoint.render());
  });
};

/**
 * Compares in constant time: both sides are hashed first, so neither the token's length nor
 * where a guess first differs shows in the time taken.
 */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/** Counts and times every answered request by its route's pattern, never the raw URL. */
export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest({
      method: request.method,
      // Requests no route matched (pages the app routes itself, probes for anything) share one.
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
