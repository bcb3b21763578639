import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Container } from '../container.js';
import { buildOperationsApp } from '../http/operations-app.js';
import type { MetricsEndpoint } from '../http/operations.js';
import { JOB_KINDS } from '../jobs/job.js';
import { createJobCountsRepository } from '../store/job-counts.js';
import { PrometheusMetrics } from './prometheus.js';
import { ReadinessProbe } from './readiness.js';
import { listenExplained } from './listen-errors.js';
import { closeHttpWithin, closeIdleOnceAnswered } from './close-http.js';

/** What a process tells its operators: its metrics (when asked for) and its readiness. */
export interface Observability {
  /** Unset when neither METRICS_TOKEN nor METRICS_PORT is: nothing is counted then. */
  metrics: PrometheusMetrics | undefined;
  readiness: ReadinessProbe;
}

export function createObservability(config: Config, log: Logger): Observability {
  const wanted = config.metricsToken !== undefined || config.metricsPort !== undefined;
  return {
    metrics: wanted ? new PrometheusMetrics(JOB_KINDS) : undefined,
    readiness: new ReadinessProbe(log),
  };
}

/** Once the container is built: the database and file store checks, the queue's gauges. */
export function observeContainer({ metrics, readiness }: Observability, c: Container): void {
  readiness.require('database', () => c.health.check());
  readiness.require('files', (signal) => c.files.check(signal));
  const jobCounts = createJobCountsRepository(c.db);
  metrics?.watch({
    engineName: c.engine.name,
    liveJobs: () => jobCounts.live(),
    ...(c.engine.serverStates && { imageServerStates: c.engine.serverStates.bind(c.engine) }),
  });
}

/** /metrics on the main port (or a worker's health port) when METRICS_TOKEN is set. */
export function tokenMetricsEndpoint(
  config: Config,
  metrics: PrometheusMetrics | undefined,
): MetricsEndpoint | undefined {
  if (!metrics || config.metricsToken === undefined) return undefined;
  return { token: config.metricsToken, ...renderer(metrics) };
}

function renderer(metrics: PrometheusMetrics): Omit<MetricsEndpoint, 'token'> {
  return { contentType: metrics.contentType, render: () => metrics.render() };
}

/** The operators' listeners a process runs besides its main port, and their addresses. */
export interface OperationsListeners {
  /** ROLE=worker's HEALTH_PORT, once listening. */
  healthPort?: number;
  /** METRICS_PORT's, once listening. */
  metricsPort?: number;
  close(): Promise<void>;
}

/**
 * A worker's health port (HEALTH_PORT: /api/health, /api/ready, and /metrics with the token),
 * and METRICS_PORT's listener (the same, /metrics without a token), as configured.
 */
export async function startOperationsListeners(
  config: Config,
  c: Container,
  { metrics, readiness }: Observability,
  log: Logger,
): Promise<OperationsListeners> {
  const apps: FastifyInstance[] = [];
  const listen = async (
    setting: string,
    port: number,
    metricsEndpoint: MetricsEndpoint | undefined,
  ) => {
    const app = await buildOperationsApp({
      logger: log,
      healthCheck: () => c.health.check(),
      ...(c.engine.health && { engineHealth: c.engine.health.bind(c.engine) }),
      readiness: readiness.check,
      ...(metricsEndpoint && { metricsEndpoint }),
    });
    closeIdleOnceAnswered(app.server);
    apps.push(app);
    await listenExplained(() => app.listen({ port, host: config.host }), {
      port,
      host: config.host,
      portVariable: setting,
      hostVariable: 'HOST',
    });
    return (app.server.address() as AddressInfo).port;
  };
  const close = async () => {
    await Promise.all(apps.map((app) => closeHttpWithin(app, config.shutdownGraceMs, log)));
  };
  try {
    const healthPort =
      config.role === 'worker' && config.healthPort !== undefined
        ? await listen('HEALTH_PORT', config.healthPort, tokenMetricsEndpoint(config, metrics))
        : undefined;
    const metricsPort =
      metrics && config.metricsPort !== undefined
        ? await listen('METRICS_PORT', config.metricsPort, renderer(metrics))
        : undefined;
    return {
      ...(healthPort !== undefined && { healthPort }),
      ...(metricsPort !== undefined && { metricsPort }),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
