import type { AddressInfo } from 'node:net';
import { PREVIEW_ENGINES, type PreviewEngine } from '@tessera/contract';
import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import {
  createEmbeddedBroker,
  BROKER_PATH,
  EMBEDDED_BROKER_PROTOCOL_VERSION,
} from '../broker/embedded.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from '../broker/limits.js';
import { generateServiceCredentials } from '../broker/service-principal.js';
import type { Config } from '../config.js';
import type { Container } from '../container.js';
import type { Engine } from '../engines/engine.js';
import { buildHttpApp } from '../http/app.js';
import { OidcFlow } from '../http/sso/oidc-flow.js';
import { SsoSignIn } from '../services/sso.js';
import { allowedHostNames, brokerUrlAtOrigin, brokerUrlResolver } from '../http/public-address.js';
import { clientAddressOf, trustFunction } from '../http/trusted-proxy.js';
import { followBrokerConnections } from '../messaging/broker-connections.js';
import { connectServiceClient, type BrokerLogin } from '../messaging/connection.js';
import { createCommandHandlers } from '../messaging/handlers/index.js';
import {
  MessagingService,
  SHARED_COMMAND_SUBSCRIPTION,
  sharedRateWindow,
  type UserCommandRate,
} from '../messaging/service.js';
import { THEMES_DIR, WEB_DIST_DIR } from '../runtime/paths.js';
import { CredentialsWatcher } from '../services/credentials-watcher.js';
import { tokenMetricsEndpoint, type Observability } from './operations.js';
import { listenExplained } from './listen-errors.js';
import { closeHttpWithin, closeIdleOnceAnswered } from './close-http.js';
import type { PrometheusMetrics } from './prometheus.js';

/** What users talk to: the HTTP app, the embedded broker unless MQTT_URL names one, messaging. */
export interface WebTier {
  url: string;
  port: number;
  /** Stops taking commands: the first step of a stop, before the jobs are stopped. */
  stopCommands(): Promise<void>;
  /** Closes the broker and the HTTP app. */
  close(): Promise<void>;
}

/** Parts of the web tier a test may listen to. */
export interface WebTierOverrides {
  /** Hears each account change another process made, once this one has acted on it. */
  onAccountChanged?: (username: string) => void;
}

/**
 * Starts the HTTP app (with the embedded broker on its WebSocket path, unless the broker is
 * external), then the messaging service as the broker's service client, whose HD status
 * messages the container's relay then carries.
 */
export async function startWebTier(
  config: Config,
  c: Container,
  log: Logger,
  { metrics, readiness }: Observability,
  overrides: WebTierOverrides = {},
): Promise<WebTier> {
  const service = generateServiceCredentials();
  const external = config.externalBroker;
  const trustProxy = config.trustedProxies && trustFunction(config.trustedProxies);
  const broker = external
    ? undefined
    : await createEmbeddedBroker({
        auth: c.auth,
        service,
        log,
        ...(config.brokerLimits && { limits: config.brokerLimits }),
        clientAddress: (req) => clientAddressOf(req, trustProxy),
      });
  const metricsEndpoint = tokenMetricsEndpoint(config, metrics);
  // One set of command handlers: MQTT's commands and their HTTP equivalents run the same code.
  const commandHandlers = createCommandHandlers({ images: c.images, tags: c.tags });
  const app = await buildHttpApp({
    logger: log,
    auth: c.auth,
    title: config.title,
    theme: config.theme,
    brokerUrlFor:
      browserBrokerUrl(config) ??
      brokerUrlResolver({
        allowedHosts: allowedHostNames(config.publicHosts),
        path: BROKER_PATH,
        port: () => (app.server.address() as AddressInfo).port,
      }),
    // Aedes, the embedded broker, speaks MQTT 3.1.1 only.
    brokerProtocolVersion: external?.publicProtocolVersion ?? EMBEDDED_BROKER_PROTOCOL_VERSION,
    healthCheck: () => c.health.check(),
    previewEngine: previewEngineOf(c.engine),
    ...(c.engine.health ? { engineHealth: c.engine.health.bind(c.engine) } : {}),
    webDistDir: WEB_DIST_DIR,
    themesDir: THEMES_DIR,
    files: c.files,
    generation: c.generation,
    hdQueue: c.hd,
    references: c.references,
    zips: c.zips,
    materialMaps: c.materialMaps,
    materialPackages: c.materialPackages,
    printFiles: c.printFiles,
    referenceAnalysis: c.referenceAnalysis,
    apiTokens: c.apiTokens,
    scriptCommands: commandHandlers,
    scriptChanges: commandHandlers,
    hdOrders: c.hd,
    admin: {
      users: c.userAdmin,
      audit: c.audit,
      retention: c.hdRetention,
      usage: c.usage,
      quotas: c.quotas,
    },
    ...(config.sso && {
      sso: {
        name: config.sso.name,
        flow: new OidcFlow(config.sso),
        signIn: new SsoSignIn(c.users, c.auth, c.audit, config.sso),
      },
    }),
    webhooks: c.webhooks,
    ...(config.publicOrigin !== undefined && { publicOrigin: config.publicOrigin }),
    ...(config.httpsOnly && { httpsOnly: true }),
    ...(trustProxy && { trustProxy }),
    deadlines: config.httpDeadlines,
    ...(metrics && { metrics }),
    readiness: readiness.check,
    ...(metricsEndpoint && { metricsEndpoint }),
  });
  closeIdleOnceAnswered(app.server);
  broker?.attach(app.server);
  // Not ready until the messaging service is connected: probes may come as soon as it listens.
  readiness.require('broker', () => {
    throw new Error('the service connection to the broker is not made yet');
  });
  await listenExplained(() => app.listen({ port: config.port, host: config.host }), {
    port: config.port,
    host: config.host,
    portVariable: 'PORT',
    hostVariable: 'HOST',
  });
  const { port } = app.server.address() as AddressInfo;

  const serviceLogin: BrokerLogin = external ?? {
    url: `ws://${loopbackFor(config.host)}:${port}${BROKER_PATH}`,
    ...service,
    ...(broker && { inProcess: () => broker.openInProcess() }),
  };
  const rate = userCommandRate(config.brokerLimits ?? DEFAULT_BROKER_LIMITS);
  const serviceClient = await connectServiceClient(serviceLogin, log);
  readiness.require('broker', () => {
    if (!serviceClient.connected) throw new Error('the service connection to the broker is down');
  });
  if (broker) metrics?.watch({ mqttConnections: () => broker.connectionCount() });
  else if (metrics) watchExternalConnections(serviceClient, metrics, log);
  const messaging = new MessagingService(
    serviceClient,
    c.userAdmin,
    commandHandlers,
    c.hd,
    log,
    rate,
    {
      // On an external broker other processes may answer commands too: each gets one of them.
      ...(external && { subscription: SHARED_COMMAND_SUBSCRIPTION }),
      ...(c.limits.store !== 'memory' && {
        sharedRate: c.limits.limiters(sharedRateWindow(rate)),
      }),
      ...(metrics && { metrics }),
    },
  );
  c.hdStatus.connect(messaging);
  await messaging.start();
  // Another process's change to an account (the users CLI, another server) reaches this one here:
  // the messaging service looks the owner up again, and the embedded broker closes the user's
  // connections (an external broker closes them itself when their login goes, docs/mosquitto.md).
  const credentialsWatcher = new CredentialsWatcher(
    c.credentialChanges,
    (username, changedAt) => {
      c.userAdmin.forgetOwner(username);
      broker?.disconnectUser(username, changedAt);
      overrides.onAccountChanged?.(username);
    },
    log,
  );
  await credentialsWatcher.start();

  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    stopCommands: async () => {
      credentialsWatcher.stop();
      await messaging.stop();
    },
    close: async () => {
      await broker?.close();
      await closeHttpWithin(app, config.shutdownGraceMs, log);
    },
  };
}

/**
 * The broker address browsers are given when the settings fix it: the external broker's
 * public one; PUBLIC_MQTT_URL for the embedded broker; else /mqtt under PUBLIC_URL (wss:// for
 * https). Undefined: it is built from each request's Host.
 */
function browserBrokerUrl(config: Config): (() => string) | undefined {
  const fixed =
    config.externalBroker?.publicUrl ??
    config.embeddedBrokerPublicUrl ??
    (config.publicOrigin !== undefined
      ? brokerUrlAtOrigin(config.publicOrigin, BROKER_PATH)
      : undefined);
  return fixed === undefined ? undefined : () => fixed;
}

/**
 * On an external broker the gauge reports the broker's own count of every client (each web
 * process reports the same), from its first publication on: a 0 before it would lie.
 */
function watchExternalConnections(client: MqttClient, metrics: PrometheusMetrics, log: Logger) {
  let connections = 0;
  followBrokerConnections(client, (count) => {
    if (connections === 0 && count > 0) metrics.watch({ mqttConnections: () => connections });
    connections = count;
  }).catch((err: unknown) => log.warn({ err }, "the broker's connection count cannot be followed"));
}

/**
 * The engine previews are made with, as the browser is told it: ComfyUI, or the builtin engine
 * (which a test's stand-in engine, named otherwise, stands in for).
 */
function previewEngineOf(engine: Pick<Engine, 'name'>): PreviewEngine {
  return PREVIEW_ENGINES.find((name) => name === engine.name) ?? 'builtin';
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
