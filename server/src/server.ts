import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Container, ContainerOverrides } from './container.js';
import { startEngineInBackground } from './engines/start-check.js';
import {
  createObservability,
  observeContainer,
  startOperationsListeners,
  type Observability,
} from './lifecycle/operations.js';
import { prepareInstance } from './lifecycle/prepare.js';
import { startWebTier, type WebTierOverrides } from './lifecycle/web-tier.js';
import { createLogger } from './runtime/logger.js';
import { connectServiceClient, type BrokerLogin } from './messaging/connection.js';
import { brokerHdStatusSink } from './messaging/hd-status-relay.js';
import { THEMES_DIR } from './runtime/paths.js';
import { watchProcess } from './runtime/process-stats.js';
import type { CreatedAdministrator } from './services/users.js';
import { checkTheme } from './themes.js';

/** A started process: its address, and a function that stops everything it started. */
export interface RunningServer {
  /** What the process does (ROLE); a worker serves no HTTP: its url is '' and its port 0. */
  role: Config['role'];
  url: string;
  port: number;
  /** The operators' listeners' addresses (a worker's HEALTH_PORT, METRICS_PORT), when configured. */
  healthUrl?: string;
  metricsUrl?: string;
  /** The administrator made on a first start, with its password. */
  createdAdmin: CreatedAdministrator | undefined;
  stop(): Promise<void>;
}

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export type ServerOverrides = ContainerOverrides & WebTierOverrides;

/**
 * Starts the parts the container built, in order, and returns how to stop them. ROLE decides
 * which: `server` all of them, `web` all but the job runner, `worker` the job runner alone
 * (with a broker connection for HD status messages) and no HTTP.
 */
export async function startServer(
  config: Config,
  overrides: ServerOverrides = {},
): Promise<RunningServer> {
  const log = createLogger(config.logLevel).child({ instance: config.instanceName });
  const external = config.externalBroker;
  if (config.role === 'worker' && !external) {
    throw new Error('ROLE=worker needs MQTT_URL (an external broker)');
  }
  if (config.role !== 'worker') checkTheme(THEMES_DIR, config.theme);
  const processWatch = watchProcess();
  const observed = createObservability(config, log);
  const { c, admin, release } = await prepareInstance(
    config,
    { ...(observed.metrics && { metrics: observed.metrics }), ...overrides },
    log,
  );
  observeContainer(observed, c);

  const web =
    config.role === 'worker' ? undefined : await startWebTier(config, c, log, observed, overrides);
  const statusClient =
    !web && external ? await connectWorkerStatus(external, c, log, observed) : undefined;
  const operations = await startOperationsListeners(config, c, observed, log);
  const runsJobs = config.role !== 'web';
  if (runsJobs) {
    startEngineInBackground(c.engine, log);
    await c.jobs.start(c.jobHandlers);
    // Daily, once across the processes sharing the database (the day's claim decides).
    c.hdRetentionSchedule.start();
    // Webhook deliveries: each claimed under a lease, so each goes once across the processes.
    c.webhookDispatcher.start();
    // Settled deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS go, at start and hourly.
    c.webhookPruning.start();
    if (!web) log.info({ instance: config.instanceName }, 'worker running jobs');
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Not ready from now on; still serving while a load balancer notices and drains us.
      observed.readiness.markStopping();
      const probed = web !== undefined || operations.healthPort !== undefined;
      if (probed && config.shutdownDrainMs > 0) {
        log.info({ ms: config.shutdownDrainMs }, 'draining: not ready, still serving');
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      }
      log.info({ ...processWatch.stats() }, 'shutting down: process stats');
      processWatch.stop();
      await web?.stopCommands();
      await c.hdRetentionSchedule.stop();
      await c.webhookDispatcher.stop();
      await c.webhookPruning.stop();
      // A worker's last status messages go out before its broker connection closes.
      await c.jobs.stop();
      await statusClient?.endAsync();
      c.engine.close?.();
      await web?.close();
      await operations.close();
      await release();
      log.info('stopped');
    })());
  return {
    role: config.role,
    url: web?.url ?? '',
    port: web?.port ?? 0,
    ...(operations.healthPort !== undefined && {
      healthUrl: `http://${shownHost(config.host)}:${operations.healthPort}`,
    }),
    ...(operations.metricsPort !== undefined && {
      metricsUrl: `http://${shownHost(config.host)}:${operations.metricsPort}`,
    }),
    createdAdmin: admin,
    stop,
  };
}

/**
 * ROLE=worker runs jobs only, so engine capacity grows apart from the web tier. It connects to
 * the external broker as the service to tell users how their HD jobs go, and subscribes to
 * nothing.
 */
async function connectWorkerStatus(
  broker: BrokerLogin,
  c: Container,
  log: Logger,
  { readiness }: Observability,
) {
  const client = await connectServiceClient(broker, log);
  readiness.require('broker', () => {
    if (!client.connected) throw new Error('the connection to the broker is down');
  });
  c.hdStatus.connect(brokerHdStatusSink(client, log));
  return client;
}

/** The address to print for a listener on `host`: a wildcard is reached at localhost. */
export function shownHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
