import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { buildAdminParts, quotaService, usageService, type AdminParts } from './container-admin.js';
import type { Engine } from './engines/engine.js';
import { createEngine } from './engines/index.js';
import { WorkerReferenceAnalyzer } from './engines/builtin/reference/worker-analyzer.js';
import type { FileStore } from './files/file-store.js';
import { createFileStore } from './files/index.js';
import { WorkerMaterialMapsMaker } from './imaging/material-maps/maker.js';
import { SharpMaterialPackageMaker } from './imaging/material-package/maker.js';
import { FolderPrintProfiles } from './imaging/print/profiles.js';
import { WorkerPrintRenderer } from './imaging/print/renderer.js';
import { jobPolicies, type JobPolicyOverrides } from './jobs/policies.js';
import { newLeaseHolder } from './jobs/lease.js';
import { JobRunner, type JobHandlers, type JobListener } from './jobs/runner.js';
import { DEFAULT_STORE_RETRY } from './jobs/store-backoff.js';
import { HdStatusRelay } from './messaging/hd-status-relay.js';
import type { Metrics } from './runtime/metrics.js';
import { AuthService } from './services/auth.js';
import { GenerationService } from './services/generation.js';
import { HdService } from './services/hd.js';
import { ImageService } from './services/images.js';
import { MaterialMapService } from './services/material-maps.js';
import { MaterialPackageService } from './services/material-package.js';
import { PrintFileService } from './services/print-files.js';
import { ReferenceAnalysisService } from './services/reference-analysis.js';
import {
  connectRedisLimiters,
  memoryLimiters,
  type Limiters,
  type SharedLimitsSettings,
} from './limits/index.js';
import { CountingLoginGuard } from './services/login-guard.js';
import { buildWebhookParts, type WebhookOverrides } from './container-webhooks.js';
import type { WebhookDispatcher } from './services/webhook-dispatcher.js';
import type { WebhookPruning } from './services/webhook-pruning.js';
import { jobEvents } from './services/webhook-events.js';
import type { WebhookService } from './services/webhooks.js';
import { RecoveryService } from './services/recovery.js';
import { systemTimers, type Timers } from './runtime/timers.js';
import { ReferenceService } from './services/references.js';
import { TagService } from './services/tags.js';
import type { UsageService } from './services/usage.js';
import { ApiTokenService } from './services/api-tokens.js';
import { AuditLog } from './services/audit.js';
import type { HdRetentionService } from './services/hd-retention.js';
import type { HdRetentionSchedule } from './services/hd-retention-schedule.js';
import type { UserProvisioning } from './services/user-provisioning.js';
import type { UserService } from './services/users.js';
import { createApiTokenRepository } from './store/api-tokens.js';
import { createAuditRepository } from './store/audit.js';
import type { QuotaService } from './services/quotas.js';
import { DEFAULT_ZIP_LIMITS, ZipDownloads } from './services/zip-downloads.js';
import { createCredentialChangeRepository } from './store/credential-changes.js';
import { databaseDialect, openDatabase, type Db } from './store/database.js';
import { databaseLimiters } from './store/rate-limits.js';
import { databaseLocation } from './store/settings.js';
import { createHealthRepository, type HealthRepository } from './store/health.js';
import { createImageRepository } from './store/images.js';
import { createReferenceRepository } from './store/references.js';
import { createMaterialMapRepository } from './store/material-maps.js';
import { createPrintFileRepository } from './store/print-files.js';
import { createJobQueue } from './store/jobs.js';
import { createSessionRepository, type SessionRepository } from './store/sessions.js';
import { createTagRepository } from './store/tags.js';
import { createZipDownloadRepository } from './store/zip-downloads.js';
import { createUserRepository, type UserRepository } from './store/users.js';
import type { CredentialChangeRepository } from './store/credential-changes.js';

/** PostgreSQL: the fallback poll behind LISTEN/NOTIFY, for `run_after` times and safety. */
const SHARED_QUEUE_POLL_MS = 5000;

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export interface ContainerOverrides extends JobPolicyOverrides, WebhookOverrides {
  engine?: Engine;
  /** Where the job runner records its runs (the root's prom-client registry); unset: nowhere. */
  metrics?: Metrics;
  /** Hears every job's state change (tests wait on a job's end instead of polling its status). */
  onJobChange?: JobListener;
  /** The clock of scheduled work (the daily HD retention run, webhook retries); unset: real time. */
  timers?: Timers;
}

/** Everything the server is made of, built once, each part given what it needs. */
export interface Container {
  db: Db;
  users: UserRepository;
  sessions: SessionRepository;
  credentialChanges: CredentialChangeRepository;
  health: HealthRepository;
  files: FileStore;
  engine: Engine;
  jobs: JobRunner;
  /** The handler of every kind of job, given to the runner when it starts. */
  jobHandlers: JobHandlers;
  /** An external broker's user logins (Mosquitto's dynamic security), or nothing to do. */
  provisioning: UserProvisioning;
  auth: AuthService;
  /** Personal API tokens (issue 30, part 1). */
  apiTokens: ApiTokenService;
  userAdmin: UserService;
  /** Per-user quotas (issue 29, part 3): the defaults, each user's own, the storage check. */
  quotas: QuotaService;
  /** Who did what (issue 29, part 5): recorded by the services, listed by the admin API. */
  audit: AuditLog;
  /** Usage at a glance (issue 29, part 6): the admin screen's charts. */
  usage: UsageService;
  images: ImageService;
  tags: TagService;
  generation: GenerationService;
  hd: HdService;
  /** Where the HD service's status messages go; connected to messaging once the broker is up. */
  hdStatus: HdStatusRelay;
  references: ReferenceService;
  zips: ZipDownloads;
  materialMaps: MaterialMapService;
  materialPackages: MaterialPackageService;
  /** Print files of HD images (issue 26, part 1). */
  printFiles: PrintFileService;
  /** References checked at upload and prepared (issue 27, part 5). */
  referenceAnalysis: ReferenceAnalysisService;
  recovery: RecoveryService;
  /** The HD retention policy (issue 29, part 4): its dry run and its run, for the CLI and admin. */
  hdRetention: HdRetentionService;
  /** Its daily run, started in the processes that run jobs. */
  hdRetentionSchedule: HdRetentionSchedule;
  /** Where login failures and command rates are counted: memory, the database or Redis. */
  limits: Limiters;
  /** Webhook endpoints and their deliveries (issue 30, part 3). */
  webhooks: WebhookService;
  /** Sends the deliveries, started in the processes that run jobs. */
  webhookDispatcher: WebhookDispatcher;
  /** Removes old settled deliveries, hourly (WEBHOOK_DELIVERY_RETENTION_DAYS). */
  webhookPruning: WebhookPruning;
}

/**
 * The composition root: builds the store's repositories, the file store, the engine, the job
 * runner and the services, in dependency order. Starts nothing but the database.
 */
export async function buildContainer(
  config: Config,
  log: Logger,
  overrides: ContainerOverrides = {},
): Promise<Container> {
  const db = await openDatabase(databaseLocation(config));
  const users = createUserRepository(db);
  const sessions = createSessionRepository(db);
  const audit = new AuditLog(createAuditRepository(db), log);
  const imageRepo = createImageRepository(db);
  const quotas = quotaService(config, db, audit);
  const holder = newLeaseHolder();
  const jobQueue = createJobQueue(db, {
    lease: { holder, ms: config.jobLeaseMs },
    ...(config.databaseUrl !== undefined && { listenUrl: config.databaseUrl }),
    // A job's end and its webhook deliveries are saved in one transaction (an outbox).
    events: jobEvents,
  });
  // Files in DATA_DIR/files or a bucket; scratch folders (uploads being checked, engine inputs
  // and outputs) in DATA_DIR/tmp. With an external broker several processes may share the data
  // folder: each has its own scratch folder, which it alone clears.
  const files = await createFileStore(
    config,
    config.externalBroker
      ? path.join(config.dataDir, 'tmp', config.instanceName)
      : path.join(config.dataDir, 'tmp'),
  );
  // Scratch files of a previous run are worthless now.
  await files.clearScratch();

  const engine = overrides.engine ?? createEngine(config, log);
  // SQLite: this is the one process running jobs, so what a crash left running is its own and
  // goes back at start. PostgreSQL: other processes may be running theirs; a dead process's
  // jobs come back when its leases expire, and LISTEN/NOTIFY makes the poll a fallback only.
  const shared = databaseDialect(db) === 'postgres';
  const policies = jobPolicies(
    {
      jobConcurrency: config.jobConcurrency,
      engineServers: config.comfyui?.urls.length ?? 0,
      maxQueuedPerUser: config.maxQueuedPerUser,
    },
    overrides,
  );
  const jobs = new JobRunner(jobQueue, policies, log, undefined, {
    requeueAtStart: !shared,
    pollMs: shared ? SHARED_QUEUE_POLL_MS : 500,
    ...(overrides.metrics && { metrics: overrides.metrics }),
    storeRetry: {
      baseMs: Math.min(DEFAULT_STORE_RETRY.baseMs, config.jobStoreRetryMaxMs),
      maxMs: config.jobStoreRetryMaxMs,
    },
  });
  const hdStatus = new HdStatusRelay();
  const hd = new HdService(imageRepo, files, jobQueue, jobs, hdStatus, engine, log, quotas);
  const references = new ReferenceService(imageRepo, files, createReferenceRepository(db), log);
  const generation = new GenerationService(
    imageRepo,
    files,
    references,
    jobQueue,
    jobs,
    engine,
    log,
    quotas,
  );
  jobs.onChange(hd.announce);
  const timers = overrides.timers ?? systemTimers;
  const webhooks = buildWebhookParts(
    db,
    jobs,
    { log, holder, timers, audit, retentionDays: config.webhookDeliveryRetentionDays },
    overrides,
  );
  if (overrides.onJobChange) jobs.onChange(overrides.onJobChange);
  const materialMaps = new MaterialMapService(
    imageRepo,
    createMaterialMapRepository(db),
    files,
    jobQueue,
    jobs,
    new WorkerMaterialMapsMaker(() => files.openScratch()),
    log,
  );
  const printFiles = new PrintFileService(
    imageRepo,
    createPrintFileRepository(db),
    files,
    jobQueue,
    jobs,
    new FolderPrintProfiles(config, log),
    new WorkerPrintRenderer(),
    log,
  );
  // Deleting an LD image cancels its HD jobs; deleting any image removes its material maps, and
  // an HD image its print files.
  const images = new ImageService(imageRepo, files, log, hd, {
    removeFor: async (owner, image) => {
      await materialMaps.removeFor(owner, image);
      await printFiles.removeFor(owner, image);
    },
  });
  const admin: AdminParts = buildAdminParts(config, db, files, audit, {
    log,
    holder,
    timers,
  });
  const { provisioning } = admin;
  const limits = await openLimiters(config.sharedLimits, db).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });

  return {
    db,
    users,
    sessions,
    credentialChanges: createCredentialChangeRepository(db),
    health: createHealthRepository(db),
    files,
    engine,
    jobs,
    jobHandlers: {
      preview: generation.runPreview,
      hd: hd.runHd,
      maps: materialMaps.runMaps,
      print: printFiles.runPrint,
    },
    provisioning,
    auth: new AuthService(
      users,
      sessions,
      new CountingLoginGuard(limits.limiters),
      undefined,
      provisioning,
      config.externalBroker === undefined,
      audit,
    ),
    apiTokens: new ApiTokenService(createApiTokenRepository(db), audit),
    userAdmin: admin.userAdmin,
    audit,
    usage: usageService(db, engine),
    quotas,
    images,
    tags: new TagService(createTagRepository(db), imageRepo),
    generation,
    hd,
    hdStatus,
    references,
    zips: new ZipDownloads(
      createZipDownloadRepository(db),
      imageRepo,
      files,
      log,
      DEFAULT_ZIP_LIMITS,
      materialMaps,
    ),
    materialMaps,
    materialPackages: new MaterialPackageService(
      imageRepo,
      materialMaps,
      files,
      new SharpMaterialPackageMaker(),
      log,
    ),
    printFiles,
    referenceAnalysis: new ReferenceAnalysisService(new WorkerReferenceAnalyzer(), log),
    recovery: new RecoveryService(users, imageRepo, images, jobQueue, files, log),
    hdRetention: admin.hdRetention,
    hdRetentionSchedule: admin.hdRetentionSchedule,
    limits,
    webhooks: webhooks.service,
    webhookDispatcher: webhooks.dispatcher,
    webhookPruning: webhooks.pruning,
  };
}

/**
 * Where login throttling and the per-user command rate are counted (config `sharedLimits`):
 * Redis with REDIS_URL, else the database when several processes may run (an external broker),
 * else this process's memory (the embedded broker is one process).
 */
async function openLimiters(settings: SharedLimitsSettings, db: Db): Promise<Limiters> {
  switch (settings.store) {
    case 'redis': {
      const redis = await connectRedisLimiters(settings.url, settings.keyPrefix);
      return { store: 'redis', ...redis };
    }
    case 'database':
      return { store: 'database', limiters: databaseLimiters(db), close: () => Promise.resolve() };
    case 'memory':
      return { store: 'memory', limiters: memoryLimiters, close: () => Promise.resolve() };
  }
}

export { userProvisioning } from './container-admin.js';
