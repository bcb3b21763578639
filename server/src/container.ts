import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Engine } from './engines/engine.js';
import { createEngine } from './engines/index.js';
import { LocalFileStore } from './files/local-file-store.js';
import { jobPolicies, type JobPolicyOverrides } from './jobs/policies.js';
import { JobRunner, type JobHandlers } from './jobs/runner.js';
import { HdStatusRelay } from './messaging/hd-status-relay.js';
import { AuthService } from './services/auth.js';
import { GenerationService } from './services/generation.js';
import { HdService } from './services/hd.js';
import { ImageService } from './services/images.js';
import { MemoryLoginGuard } from './services/login-guard.js';
import { RecoveryService } from './services/recovery.js';
import { ReferenceService } from './services/references.js';
import { TagService } from './services/tags.js';
import { UserService } from './services/users.js';
import { ZipDownloads } from './services/zip-downloads.js';
import { createCredentialChangeRepository } from './store/credential-changes.js';
import { openDatabase, type Db } from './store/database.js';
import { createHealthRepository, type HealthRepository } from './store/health.js';
import { createImageRepository } from './store/images.js';
import { createSqliteJobQueue } from './store/jobs.js';
import { createSessionRepository, type SessionRepository } from './store/sessions.js';
import { createTagRepository } from './store/tags.js';
import { createUserRepository, type UserRepository } from './store/users.js';
import type { CredentialChangeRepository } from './store/credential-changes.js';

/** Parts a test may replace: an engine that fails on purpose, quicker retries. */
export interface ContainerOverrides extends JobPolicyOverrides {
  engine?: Engine;
}

/** Everything the server is made of, built once, each part given what it needs. */
export interface Container {
  db: Db;
  users: UserRepository;
  sessions: SessionRepository;
  credentialChanges: CredentialChangeRepository;
  health: HealthRepository;
  files: LocalFileStore;
  /** Uploads being checked and engine outputs, on the same disk as the files. */
  scratchDir: string;
  engine: Engine;
  jobs: JobRunner;
  /** The handler of every kind of job, given to the runner when it starts. */
  jobHandlers: JobHandlers;
  auth: AuthService;
  userAdmin: UserService;
  images: ImageService;
  tags: TagService;
  generation: GenerationService;
  hd: HdService;
  /** Where the HD service's status messages go; connected to messaging once the broker is up. */
  hdStatus: HdStatusRelay;
  references: ReferenceService;
  zips: ZipDownloads;
  recovery: RecoveryService;
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
  const db = await openDatabase(config.dataDir);
  const users = createUserRepository(db);
  const sessions = createSessionRepository(db);
  const imageRepo = createImageRepository(db);
  const jobQueue = createSqliteJobQueue(db);
  const files = new LocalFileStore(path.join(config.dataDir, 'files'));

  // Scratch files of a previous run (uploads being checked, engine outputs) are worthless now.
  const scratchDir = path.join(config.dataDir, 'tmp');
  await fs.rm(scratchDir, { recursive: true, force: true });

  const engine = overrides.engine ?? createEngine(config);
  const jobs = new JobRunner(jobQueue, jobPolicies(config, overrides), log);
  const hdStatus = new HdStatusRelay();
  const hd = new HdService(imageRepo, files, jobQueue, jobs, hdStatus, engine, scratchDir, log);
  const generation = new GenerationService(
    imageRepo,
    files,
    jobQueue,
    jobs,
    engine,
    scratchDir,
    log,
  );
  jobs.onChange(hd.announce);
  // Deleting an LD image cancels its HD jobs.
  const images = new ImageService(imageRepo, files, log, hd);

  return {
    db,
    users,
    sessions,
    credentialChanges: createCredentialChangeRepository(db),
    health: createHealthRepository(db),
    files,
    scratchDir,
    engine,
    jobs,
    jobHandlers: { preview: generation.runPreview, hd: hd.runHd },
    auth: new AuthService(users, sessions, new MemoryLoginGuard()),
    userAdmin: new UserService(users),
    images,
    tags: new TagService(createTagRepository(db), imageRepo),
    generation,
    hd,
    hdStatus,
    references: new ReferenceService(imageRepo, files),
    zips: new ZipDownloads(imageRepo, files, log),
    recovery: new RecoveryService(users, imageRepo, images, jobQueue, files, log),
  };
}
