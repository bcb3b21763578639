import fastifyCookie from '@fastify/cookie';
import type { MqttProtocolVersion, PreviewEngine, ServerErrorCode } from '@tessera/contract';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type RouteOptions,
} from 'fastify';
import type { EngineHealth } from '../engines/engine.js';
import type { FileStore } from '../files/file-store.js';
import type { Metrics } from '../runtime/metrics.js';
import type { ApiTokenAuthenticator } from '../services/api-tokens.js';
import type { AuthService } from '../services/auth.js';
import { readableError } from '../services/readable-error.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import { DEFAULT_HTTP_DEADLINES, deadlineOptions, type HttpDeadlines } from './deadlines.js';
import { generationRoutes, type GenerationApi } from './routes/generation.js';
import { libraryRoutes, type HdQueueApi, type ReferencesApi } from './routes/hd-jobs.js';
import { engineRoutes } from './routes/engine.js';
import { imageRoutes } from './routes/images.js';
import { materialMapRoutes, type MaterialMapsApi } from './routes/material-maps.js';
import { materialPackageRoutes, type MaterialPackageApi } from './routes/material-package.js';
import { metaRoutes } from './routes/meta.js';
import { openApiRoutes } from './routes/openapi.js';
import { printRoutes, type PrintFilesApi } from './routes/print.js';
import { referenceAnalysisRoutes, type ReferenceAnalysisApi } from './routes/reference-analysis.js';
import {
  observeRequests,
  operationsRoutes,
  type MetricsEndpoint,
  type Readiness,
} from './operations.js';
import { sessionRoutes } from './routes/session.js';
import { providerLogout, ssoRoutes, type SsoApi } from './routes/sso.js';
import { adminRoutes, type AdminApi } from './routes/admin-users.js';
import { apiTokenRoutes, type ApiTokensApi } from './routes/api-tokens.js';
import { scriptApiRoutes, type HdOrdersApi, type ScriptCommands } from './routes/script-api.js';
import { scriptChangeRoutes, type ScriptChangeCommands } from './routes/script-changes.js';
import { storageUsageRoutes } from './routes/storage-usage.js';
import { sameOriginGuard } from './same-origin.js';
import { sessionHook } from './session.js';
import { staticFiles } from './static.js';
import type { TrustFunction } from './trusted-proxy.js';
import { webhookRoutes, type WebhooksApi } from './routes/webhooks.js';
import { whoamiRoutes } from './routes/whoami.js';
import { zipRoutes, type ZipApi } from './routes/zip.js';

/**
 * Browsers keep to https for this host for a year. Subdomains are not included: they may be
 * other services of the operator's, not all of them served over https.
 */
const HSTS = 'max-age=31536000';

/** The HTTP status of an unexpected failure that readableError recognised. */
const READABLE_STATUS: Partial<Record<ServerErrorCode, number>> = {
  DISK_FULL: 507,
  NOT_FOUND: 404,
  IMAGE_UNREADABLE: 422,
  /** The object store does not answer: the request may succeed later (issue 23, part 11). */
  FILE_STORE_UNREACHABLE: 503,
};

export interface HttpDependencies {
  logger: FastifyBaseLogger;
  auth: AuthService;
  title: string;
  theme: string;
  /** The broker's WebSocket address as a browser that sent this request must reach it. */
  brokerUrlFor(request: { protocol: string; host: string }): string;
  /** The MQTT version browsers speak to that broker (4: MQTT 3.1.1, the embedded broker). */
  brokerProtocolVersion: MqttProtocolVersion;
  /** Throws when a part the server needs (the database) does not answer. */
  healthCheck(): Promise<void>;
  /** The engine previews are made with (issue 27: the Generate screen's help depends on it). */
  previewEngine: PreviewEngine;
  /** The engine's own state (its ComfyUI servers), when it has one to tell. */
  engineHealth?: () => Promise<EngineHealth>;
  /** Where the built web app is; unset in development, where Vite serves it. */
  webDistDir?: string;
  themesDir: string;
  /** The users' image files, served by /api/images/... to their owner only; uploads' scratch. */
  files: FileStore;
  /** Preview jobs and generation status (SPEC §7). */
  generation: GenerationApi;
  /** The HD queue (beyond the spec). */
  hdQueue: HdQueueApi;
  /** The references library (beyond the spec). */
  references: ReferencesApi;
  /** Selections of images as one ZIP download. */
  zips: ZipApi;
  /** PBR material maps of an image (issue 17, part 5). */
  materialMaps: MaterialMapsApi;
  /** Material packages of an image with its maps (issue 26, part 3). */
  materialPackages: MaterialPackageApi;
  /** Print files of HD images (issue 26, part 1). */
  printFiles: PrintFilesApi;
  /** References checked at upload and prepared (issue 27, part 5). */
  referenceAnalysis: ReferenceAnalysisApi;
  /** The administrator's users and audit trail (issue 29): admins only. */
  admin: AdminApi;
  /** Single sign-on with an OpenID Connect provider (issue 30, part 4); unset: off. */
  sso?: SsoApi;
  /** Personal API tokens (issue 30, part 1): the tokens screen, and every Bearer request. */
  apiTokens: ApiTokensApi & ApiTokenAuthenticator;
  /** The messaging commands scripts reach over HTTP (issue 30, part 1): MQTT's own handlers. */
  scriptCommands: ScriptCommands;
  /** Stars, deletions and tags for scripts (issue 30, part 1): MQTT's own handlers too. */
  scriptChanges: ScriptChangeCommands;
  /** HD orders by size label and one order's status (issue 30, part 1). */
  hdOrders: HdOrdersApi;
  /** Webhook endpoints and their deliveries (issue 30, part 3). */
  webhooks: WebhooksApi;
  /** The origin browsers reach the server at (PUBLIC_URL's); unset: each request's Host. */
  publicOrigin?: string;
  /**
   * PUBLIC_URL is https: the session cookie is always Secure (a TLS proxy in front talks plain
   * HTTP to this server) and every answer carries HSTS.
   */
  httpsOnly?: boolean;
  /** Whose X-Forwarded-* headers to believe (TRUST_PROXY); unset: nobody's. */
  trustProxy?: TrustFunction;
  /** How long clients may take over requests; unset: DEFAULT_HTTP_DEADLINES. */
  deadlines?: HttpDeadlines;
  /** Where each request's route, status and duration go; unset: nowhere. */
  metrics?: Metrics;
  /** GET /metrics (with METRICS_TOKEN); unset: 404. */
  metricsEndpoint?: MetricsEndpoint;
  /** GET /api/ready; unset: always ready. */
  readiness?: () => Promise<Readiness>;
  /** Told of every route as it is registered (tests list the routes the app answers). */
  onRoute?: (route: RouteOptions) => void;
}

/** The HTTP side of the server as one Fastify app; tests build it and call `inject`. */
export async function buildHttpApp(deps: HttpDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    // A file name may be 255 characters, more once percent-encoded (the default is 100).
    routerOptions: { maxParamLength: 1024 },
    ...deadlineOptions(deps.deadlines ?? DEFAULT_HTTP_DEADLINES),
    // request.ip (the login limits), .protocol and .host read the forwarded headers of these only.
    ...(deps.trustProxy && { trustProxy: deps.trustProxy }),
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  if (deps.metrics) observeRequests(app, deps.metrics);

  app.addHook('onSend', (request, reply, payload, done) => {
    const brokerUrl = deps.brokerUrlFor({ protocol: request.protocol, host: request.host });
    reply.header('content-security-policy', contentSecurityPolicy(brokerUrl));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (deps.httpsOnly) reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      // The detail (paths, library texts) goes to the log; the user reads the contract's text.
      request.log.error({ err: error }, 'request failed');
      const readable = readableError(error);
      return reply.status(READABLE_STATUS[readable.code] ?? status).send({ error: readable.text });
    }
    return reply.status(status).send({ error: error.message });
  });

  await app.register(sameOriginGuard, {
    ...(deps.publicOrigin !== undefined && { publicOrigin: deps.publicOrigin }),
  });
  await app.register(fastifyCookie);
  await app.register(sessionHook, { auth: deps.auth, tokens: deps.apiTokens });
  await app.register(metaRoutes, deps);
  await app.register(openApiRoutes);
  await app.register(operationsRoutes, {
    ...(deps.readiness && { readiness: deps.readiness }),
    ...(deps.metricsEndpoint && { metricsEndpoint: deps.metricsEndpoint }),
  });
  await app.register(sessionRoutes, {
    auth: deps.auth,
    ...(deps.httpsOnly !== undefined && { httpsOnly: deps.httpsOnly }),
    ...(deps.sso && { providerLogout: providerLogout(deps.sso, deps.publicOrigin) }),
  });
  await app.register(ssoRoutes, {
    auth: deps.auth,
    ...(deps.sso && { sso: deps.sso }),
    ...(deps.httpsOnly !== undefined && { httpsOnly: deps.httpsOnly }),
    ...(deps.publicOrigin !== undefined && { publicOrigin: deps.publicOrigin }),
  });
  await app.register(imageRoutes, { files: deps.files });
  await app.register(generationRoutes, {
    generation: deps.generation,
    files: deps.files,
  });
  await app.register(engineRoutes, { previewEngine: deps.previewEngine });
  await app.register(libraryRoutes, { hdQueue: deps.hdQueue, references: deps.references });
  await app.register(apiTokenRoutes, { tokens: deps.apiTokens });
  await app.register(scriptApiRoutes, { commands: deps.scriptCommands, hdOrders: deps.hdOrders });
  await app.register(scriptChangeRoutes, { commands: deps.scriptChanges });
  await app.register(whoamiRoutes);
  await app.register(zipRoutes, { zips: deps.zips });
  await app.register(materialMapRoutes, { materialMaps: deps.materialMaps });
  await app.register(materialPackageRoutes, { packages: deps.materialPackages });
  await app.register(printRoutes, { printFiles: deps.printFiles });
  await app.register(referenceAnalysisRoutes, {
    references: deps.referenceAnalysis,
    files: deps.files,
  });
  await app.register(storageUsageRoutes, { quotas: deps.admin.quotas });
  await app.register(adminRoutes, deps.admin);
  await app.register(webhookRoutes, { webhooks: deps.webhooks });
  await app.register(staticFiles, { webDistDir: deps.webDistDir, themesDir: deps.themesDir });
  return app;
}

/** One log line per request, when it completes, instead of Fastify's two. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // Logged once, on completion.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: Parameters<LogController['requestCompleted']>[1],
    reply: Parameters<LogController['requestCompleted']>[2],
  ): void {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}
