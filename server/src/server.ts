import type { AddressInfo } from 'node:net';
import {
  createEmbeddedBroker,
  BROKER_PATH,
  EMBEDDED_BROKER_PROTOCOL_VERSION,
} from './broker/embedded.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './broker/limits.js';
import { generateServiceCredentials } from './broker/service-principal.js';
import type { Config } from './config.js';
import { buildContainer, type ContainerOverrides } from './container.js';
import { startEngineInBackground } from './engines/start-check.js';
import { buildHttpApp } from './http/app.js';
import { allowedHostNames, brokerUrlResolver } from './http/public-address.js';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { createInstanceRegistry } from './store/instances.js';
import { connectServiceClient, type BrokerLogin } from './messaging/connection.js';
import { createCommandHandlers } from './messaging/handlers/index.js';
import { brokerHdStatusSink } from './messaging/hd-status-relay.js';
import {
  MessagingService,
  SHARED_COMMAND_SUBSCRIPTION,
  sharedRateWindow,
  type UserCommandRate,
} from './messaging/service.js';
import { THEMES_DIR, WEB_DIST_DIR } from './paths.js';
import { watchProcess } from './process-stats.js';
import { CredentialsWatcher } from './services/credentials-watcher.js';
import { checkTheme } from './themes.js';

/** Wires config, store, broker, messaging and HTTP; the address, and a function that stops them all. */
export interface RunningServer {
  /** What the process does (ROLE); a worker serves no HTTP: its url is '' and its port 0. */
  role: Config['role'];
  url: string;
  port: number;
  /** The administrator made on a first start, with its one-time password. */
  createdAdmin: { username: string; password: string } | undefined;
  stop(): Promise<void>;
}

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export type ServerOverrides = ContainerOverrides;

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
  if (config.role === 'worker') return startWorker(config, overrides, log);
  const processWatch = watchProcess();
  checkTheme(THEMES_DIR, config.theme);
  const { c, admin, release } = await prepare(config, overrides, log);

  const service = generateServiceCredentials();
  const external = config.externalBroker;
  const broker = external
    ? undefined
    : await createEmbeddedBroker({
        auth: c.auth,
        service,
        log,
        ...(config.brokerLimits && { limits: config.brokerLimits }),
      });
  const app = await buildHttpApp({
    logger: log,
    auth: c.auth,
    title: config.title,
    theme: config.theme,
    brokerUrlFor: external
      ? () => external.publicUrl
      : brokerUrlResolver({
          allowedHosts: allowedHostNames(config.publicHosts),
          path: BROKER_PATH,
          port: () => (app.server.address() as AddressInfo).port,
        }),
    // Aedes, the embedded broker, speaks MQTT 3.1.1 only.
    brokerProtocolVersion: external?.publicProtocolVersion ?? EMBEDDED_BROKER_PROTOCOL_VERSION,
    healthCheck: () => c.health.check(),
    ...(c.engine.health ? { engineHealth: c.engine.health.bind(c.engine) } : {}),
    webDistDir: WEB_DIST_DIR,
    themesDir: THEMES_DIR,
    files: c.files,
    generation: c.generation,
    hdQueue: c.hd,
    references: c.references,
    zips: c.zips,
    materialMaps: c.materialMaps,
  });
  broker?.attach(app.server);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;

  const serviceLogin: BrokerLogin = external ?? {
    url: `ws://${loopbackFor(config.host)}:${port}${BROKER_PATH}`,
    ...service,
  };
  const rate = userCommandRate(config.brokerLimits ?? DEFAULT_BROKER_LIMITS);
  const messaging = new MessagingService(
    await connectServiceClient(serviceLogin, log),
    c.users,
    createCommandHandlers({ images: c.images, tags: c.tags }),
    c.hd,
    log,
    rate,
    {
      // On an external broker other processes may answer commands too: each gets one of them.
      ...(external && { subscription: SHARED_COMMAND_SUBSCRIPTION }),
      ...(c.limits.store !== 'memory' && {
        sharedRate: c.limits.limiters(sharedRateWindow(rate)),
      }),
    },
  );
  c.hdStatus.connect(messaging);
  await messaging.start();
  const runsJobs = config.role === 'server';
  if (runsJobs) {
    startEngineInBackground(c.engine, log);
    await c.jobs.start(c.jobHandlers);
  }
  // On an external broker the messaging service refuses a removed user's commands (it looks the
  // user up for each), and deleting their broker login closes their connections (docs/mosquitto.md).
  const credentialsWatcher =
    broker &&
    new CredentialsWatcher(
      c.credentialChanges,
      (username, changedAt) => broker.disconnectUser(username, changedAt),
      log,
    );
  await credentialsWatcher?.start();

  const url = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info({ ...processWatch.stats() }, 'shutting down: process stats');
      processWatch.stop();
      credentialsWatcher?.stop();
      await messaging.stop();
      await c.jobs.stop();
      c.engine.close?.();
      await broker?.close();
      await app.close();
      await release();
      log.info('stopped');
    })());
  return { role: config.role, url, port, createdAdmin: admin, stop };
}

/** A process whose last beat is older than this is taken for gone. */
const INSTANCE_ALIVE_MS = 15_000;
const INSTANCE_BEAT_MS = 5_000;

/**
 * What every role does first: the container, start-up repairs, the broker's logins, the admin.
 * The process registers itself among the running instances and keeps its row fresh. `release`,
 * the last step of every role's stop, closes what this built and removes the row.
 */
async function prepare(config: Config, overrides: ServerOverrides, log: Logger) {
  const c = await buildContainer(config, log, overrides);
  const instances = createInstanceRegistry(c.db);
  const others = await instances.othersAlive(config.instanceName, Date.now() - INSTANCE_ALIVE_MS);
  // Before anything runs or is served: repair what a crash may have left half done. Not while
  // other processes work on the same files: what looks half done may be theirs, in the making.
  if (others.length === 0) await c.recovery.run();
  else log.warn({ others }, 'start-up file repairs skipped: other instances are running');
  const beat = () => instances.beat(config.instanceName, config.role, Date.now());
  await beat();
  const beating = setInterval(() => {
    beat().catch((err: unknown) => log.warn({ err }, 'instance heartbeat not saved'));
  }, INSTANCE_BEAT_MS);
  beating.unref();
  const release = async () => {
    await c.provisioning.close();
    c.zips.close();
    await c.limits.close();
    clearInterval(beating);
    await instances.remove(config.instanceName).catch(() => undefined);
    await c.db.destroy();
  };
  const reconciled = await c.userAdmin.reconcileBroker();
  if (Object.values(reconciled).some((names) => names.length > 0)) {
    log.info(reconciled, 'broker logins reconciled with the users');
  }
  const admin = await c.userAdmin.ensureAdministrator();
  await c.sessions.removeExpired(new Date());
  return { c, admin, release };
}

/**
 * ROLE=worker: runs jobs only, so engine capacity grows apart from the web tier. It connects
 * to the external broker as the service to tell users how their HD jobs go; it subscribes to
 * nothing (the config refuses a worker without MQTT_URL).
 */
async function startWorker(
  config: Config,
  overrides: ServerOverrides,
  log: Logger,
): Promise<RunningServer> {
  const external = config.externalBroker;
  if (!external) throw new Error('ROLE=worker needs MQTT_URL (an external broker)');
  const processWatch = watchProcess();
  const { c, admin, release } = await prepare(config, overrides, log);
  const client = await connectServiceClient(external, log);
  c.hdStatus.connect(brokerHdStatusSink(client, log));
  startEngineInBackground(c.engine, log);
  await c.jobs.start(c.jobHandlers);
  log.info({ instance: config.instanceName }, 'worker running jobs');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info({ ...processWatch.stats() }, 'shutting down: process stats');
      processWatch.stop();
      // Jobs first: the last status messages go out before the broker connection closes.
      await c.jobs.stop();
      await client.endAsync();
      c.engine.close?.();
      await release();
      log.info('stopped');
    })());
  return { role: 'worker', url: '', port: 0, createdAdmin: admin, stop };
}

/** One user's commands together: twice what one connection may send, so two busy tabs fit. */
function userCommandRate(limits: BrokerLimits): UserCommandRate {
  return { perSecond: 2 * limits.publishPerSecond, burst: 2 * limits.publishBurst };
}

function loopbackFor(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
