import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import {
  createEmbeddedBroker,
  BROKER_PATH,
  EMBEDDED_BROKER_PROTOCOL_VERSION,
} from './broker/embedded.js';
import { generateServiceCredentials } from './broker/service-principal.js';
import type { Config } from './config.js';
import { buildHttpApp } from './http/app.js';
import { allowedHostNames, brokerUrlResolver } from './http/public-address.js';
import { createLogger } from './logger.js';
import { watchProcess } from './process-stats.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from './engines/index.js';
import type { GenerationApi } from './http/routes/generation.js';
import { exponentialBackoff, JobRunner } from './jobs/runner.js';
import type { Engine } from './engines/engine.js';
import { GenerationService, PREVIEW_JOB, statusOf } from './services/generation.js';
import { HD_JOB, HdService } from './services/hd.js';
import { RecoveryService } from './services/recovery.js';
import { ReferenceService } from './services/references.js';
import { createJobRepository } from './store/jobs.js';
import { LocalFileStore } from './files/local-file-store.js';
import { connectServiceClient, type BrokerLogin } from './messaging/connection.js';
import { createCommandHandlers } from './messaging/handlers/index.js';
import { MessagingService, type UserCommandRate } from './messaging/service.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './broker/limits.js';
import { ImageService } from './services/images.js';
import { TagService } from './services/tags.js';
import { ZipDownloads } from './services/zip-downloads.js';
import { createImageRepository } from './store/images.js';
import { createTagRepository } from './store/tags.js';
import { THEMES_DIR, WEB_DIST_DIR } from './paths.js';
import { AuthService } from './services/auth.js';
import { MemoryLoginGuard } from './services/login-guard.js';
import { UserService } from './services/users.js';
import { CredentialsWatcher } from './services/credentials-watcher.js';
import { checkTheme } from './themes.js';
import { openDatabase } from './store/database.js';
import { createCredentialChangeRepository } from './store/credential-changes.js';
import { createSessionRepository } from './store/sessions.js';
import { createUserRepository } from './store/users.js';

/** Wires config, store, broker, messaging and HTTP; the address, and a function that stops them all. */
export interface RunningServer {
  url: string;
  port: number;
  /** The administrator made on a first start, with its one-time password. */
  createdAdmin: { username: string; password: string } | undefined;
  stop(): Promise<void>;
}

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export interface ServerOverrides {
  engine?: Engine;
  hdRetryDelayMs?: (attempt: number) => number;
}

export async function startServer(
  config: Config,
  overrides: ServerOverrides = {},
): Promise<RunningServer> {
  const log = createLogger(config.logLevel);
  const processWatch = watchProcess();
  checkTheme(THEMES_DIR, config.theme);

  const db = await openDatabase(config.dataDir);
  const users = createUserRepository(db);
  const sessions = createSessionRepository(db);
  const auth = new AuthService(users, sessions, new MemoryLoginGuard());
  const files = new LocalFileStore(path.join(config.dataDir, 'files'));
  const imageRepo = createImageRepository(db);
  // Deleting an LD image cancels its HD jobs (the runner and HD service are made just below).
  const images = new ImageService(imageRepo, files, log, (owner, filename) =>
    hd.cancelForImage(jobs, owner, filename),
  );
  const tags = new TagService(createTagRepository(db), imageRepo);

  // Scratch files of a previous run (uploads being checked, engine outputs) are worthless now.
  const scratchDir = path.join(config.dataDir, 'tmp');
  await fs.rm(scratchDir, { recursive: true, force: true });
  const jobRepo = createJobRepository(db);
  const engine = overrides.engine ?? createEngine(config);
  const generation = new GenerationService(imageRepo, files, engine, scratchDir, log);
  const hd = new HdService(imageRepo, files, jobRepo, engine, scratchDir, log);
  const references = new ReferenceService(imageRepo, files);
  const zips = new ZipDownloads(imageRepo, files, log);
  // CPU engines run one job per core budget; with ComfyUI every configured GPU server takes one.
  const engineConcurrency = Math.max(config.jobConcurrency, config.comfyui?.urls.length ?? 0);
  const jobs = new JobRunner(
    jobRepo,
    {
      [PREVIEW_JOB]: {
        handler: generation.runPreview,
        concurrency: engineConcurrency,
        maxLivePerOwner: config.maxQueuedPerUser.preview,
        // A second attempt covers a crash or restart mid-job; the browser shows a real failure.
        maxAttempts: 2,
        retryDelayMs: exponentialBackoff(1000, 10_000),
      },
      [HD_JOB]: {
        handler: hd.runHd,
        concurrency: engineConcurrency,
        maxLivePerOwner: config.maxQueuedPerUser.hd,
        // Each failed attempt is told to the user and retried after a growing pause.
        maxAttempts: 3,
        retryDelayMs: overrides.hdRetryDelayMs ?? exponentialBackoff(5000, 60_000),
      },
    },
    log,
  );
  jobs.onChange(hd.announce);
  // Before anything runs or is served: repair what a crash may have left half done.
  await new RecoveryService(users, imageRepo, images, jobRepo, files, log).run();
  const generationApi: GenerationApi = {
    enqueuePreview: (owner, request, upload) =>
      generation.enqueuePreview(jobs, owner, request, upload),
    latestStatus: async (owner, kind) => {
      const job = await jobRepo.latest(owner.id, kind === 'preview' ? PREVIEW_JOB : HD_JOB);
      return job && statusOf(job);
    },
  };

  const admin = await new UserService(users).ensureAdministrator();
  await sessions.removeExpired(new Date());

  const service = generateServiceCredentials();
  const broker = config.externalBroker
    ? undefined
    : await createEmbeddedBroker({
        auth,
        service,
        log,
        ...(config.brokerLimits && { limits: config.brokerLimits }),
      });
  const external = config.externalBroker;

  const app = await buildHttpApp({
    logger: log,
    auth,
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
    healthCheck: async () => {
      await sql`select 1`.execute(db);
    },
    ...(engine.health ? { engineHealth: engine.health.bind(engine) } : {}),
    webDistDir: WEB_DIST_DIR,
    themesDir: THEMES_DIR,
    files,
    generation: generationApi,
    library: {
      hdJobs: (owner) => hd.list(owner),
      cancelHdJob: (owner, id) => hd.cancel(owner, id),
      moveHdJobToTop: (owner, id) => hd.moveToTop(owner, id),
      setHdQueuePaused: (owner, paused) => (paused ? hd.pause(owner) : hd.resume(jobs, owner)),
      inputs: (owner) => references.list(owner),
    },
    zips,
    scratchDir,
  });
  broker?.attach(app.server);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;

  const serviceLogin: BrokerLogin = external ?? {
    url: `ws://${loopbackFor(config.host)}:${port}${BROKER_PATH}`,
    ...service,
  };
  const messagingClient = await connectServiceClient(serviceLogin, log);
  const messaging = new MessagingService(
    messagingClient,
    users,
    createCommandHandlers({ images, tags }),
    (owner, command) => hd.order(jobs, owner, command),
    log,
    userCommandRate(config.brokerLimits ?? DEFAULT_BROKER_LIMITS),
  );
  hd.setNotifier((username, message) => messaging.publishHdStatus(username, message));
  await messaging.start();
  // Not awaited: a server that is down or slow to list its nodes must not hold up the start.
  void engine
    .start?.()
    .then((health) => {
      for (const server of health.servers ?? []) {
        if (server.state === 'up') continue;
        log.warn(
          {
            server: server.url,
            state: server.state,
            missing: server.missing,
            err: server.lastError,
          },
          server.state === 'incomplete'
            ? 'ComfyUI server lacks what the templates need: it gets no jobs'
            : 'ComfyUI server not answering',
        );
      }
    })
    .catch((err: unknown) => log.error({ err }, 'checking the engine failed'));
  await jobs.start();
  // On an external broker the messaging service refuses a removed user's commands (it looks the
  // user up for each); Mosquitto keeps their connections (docs/architecture.md, "Ending access").
  const credentialsWatcher =
    broker &&
    new CredentialsWatcher(
      createCredentialChangeRepository(db),
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
      await jobs.stop();
      engine.close?.();
      await broker?.close();
      await app.close();
      zips.close();
      await db.destroy();
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
