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
import { createLogger } from './logger.js';
import { connectServiceClient, type BrokerLogin } from './messaging/connection.js';
import { createCommandHandlers } from './messaging/handlers/index.js';
import { MessagingService, type UserCommandRate } from './messaging/service.js';
import { THEMES_DIR, WEB_DIST_DIR } from './paths.js';
import { watchProcess } from './process-stats.js';
import { CredentialsWatcher } from './services/credentials-watcher.js';
import { checkTheme } from './themes.js';

/** Wires config, store, broker, messaging and HTTP; the address, and a function that stops them all. */
export interface RunningServer {
  url: string;
  port: number;
  /** The administrator made on a first start, with its one-time password. */
  createdAdmin: { username: string; password: string } | undefined;
  stop(): Promise<void>;
}

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export type ServerOverrides = ContainerOverrides;

/** Starts the parts the container built, in order, and returns how to stop them. */
export async function startServer(
  config: Config,
  overrides: ServerOverrides = {},
): Promise<RunningServer> {
  const log = createLogger(config.logLevel);
  const processWatch = watchProcess();
  checkTheme(THEMES_DIR, config.theme);
  const c = await buildContainer(config, log, overrides);
  // Before anything runs or is served: repair what a crash may have left half done.
  await c.recovery.run();
  const admin = await c.userAdmin.ensureAdministrator();
  await c.sessions.removeExpired(new Date());

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
    scratchDir: c.scratchDir,
  });
  broker?.attach(app.server);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;

  const serviceLogin: BrokerLogin = external ?? {
    url: `ws://${loopbackFor(config.host)}:${port}${BROKER_PATH}`,
    ...service,
  };
  const messaging = new MessagingService(
    await connectServiceClient(serviceLogin, log),
    c.users,
    createCommandHandlers({ images: c.images, tags: c.tags }),
    c.hd,
    log,
    userCommandRate(config.brokerLimits ?? DEFAULT_BROKER_LIMITS),
  );
  c.hdStatus.connect(messaging);
  await messaging.start();
  startEngineInBackground(c.engine, log);
  await c.jobs.start(c.jobHandlers);
  // On an external broker the messaging service refuses a removed user's commands (it looks the
  // user up for each); Mosquitto keeps their connections (docs/architecture.md, "Ending access").
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
      c.zips.close();
      await c.db.destroy();
      log.info('stopped');
    })());
  return { url, port, createdAdmin: admin, stop };
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
