import type { Logger } from 'pino';
import { connectDynamicSecurity } from './broker/dynamic-security.js';
import type { BrokerSettings } from './broker/settings.js';
import { MosquittoUserProvisioning } from './broker/user-provisioning.js';
import type { Config } from './config.js';
import type { Engine } from './engines/engine.js';
import type { FileStore } from './files/file-store.js';
import { initialPasswordFile } from './files/initial-password-file.js';
import type { Timers } from './runtime/timers.js';
import type { AuditLog } from './services/audit.js';
import { HdRetentionSchedule } from './services/hd-retention-schedule.js';
import { HdRetentionService } from './services/hd-retention.js';
import { ownerFilesIn } from './services/owner-files.js';
import { QuotaService } from './services/quotas.js';
import { ImageTakeOver } from './services/take-over.js';
import { noUserProvisioning, type UserProvisioning } from './services/user-provisioning.js';
import { UsageService } from './services/usage.js';
import { UserService } from './services/users.js';
import { createDailyImagesRepository } from './store/daily-images.js';
import type { Db } from './store/database.js';
import { createHdRetentionRepository } from './store/hd-retention.js';
import { createJobCountsRepository } from './store/job-counts.js';
import { createQuotaRepository } from './store/quotas.js';
import { createTakeOverRepository } from './store/take-over.js';
import { createUserRepository } from './store/users.js';
import { createUserUsageReader } from './store/user-usage.js';

/** The administration's parts (issue 29): accounts, retention, quotas and the usage charts. */
export interface AdminParts {
  /** An external broker's user logins (Mosquitto's dynamic security), or nothing to do. */
  provisioning: UserProvisioning;
  userAdmin: UserService;
  hdRetention: HdRetentionService;
  hdRetentionSchedule: HdRetentionSchedule;
}

/** Builds the administration's parts of the server (container.ts), sharing its audit trail. */
export function buildAdminParts(
  config: Config,
  db: Db,
  files: FileStore,
  audit: AuditLog,
  clock: { log: Logger; holder: string; timers: Timers },
): AdminParts {
  const provisioning = userProvisioning(config, clock.log);
  const hdRetention = new HdRetentionService(
    createHdRetentionRepository(db),
    files,
    config.hdRetentionDays,
    clock.log,
    audit,
  );
  return {
    provisioning,
    userAdmin: userService(db, files, config.dataDir, audit, provisioning),
    hdRetention,
    hdRetentionSchedule: new HdRetentionSchedule(
      hdRetention,
      clock.timers,
      clock.holder,
      clock.log,
    ),
  };
}

/** Per-user quotas (issue 29, part 3): the configuration's limits are the first defaults. */
export function quotaService(config: Config, db: Db, audit: AuditLog): QuotaService {
  return new QuotaService(
    createQuotaRepository(db),
    {
      storageBytes: config.storageQuotaBytes ?? null,
      queuedPreviews: config.maxQueuedPerUser.preview,
      queuedHd: config.maxQueuedPerUser.hd,
    },
    audit,
  );
}

/** Usage at a glance (issue 29, part 6): images per day, the queue, the engine's servers. */
export function usageService(db: Db, engine: Pick<Engine, 'health'>): UsageService {
  return new UsageService({
    images: createDailyImagesRepository(db),
    jobs: createJobCountsRepository(db),
    ...(engine.health && { engineHealth: engine.health.bind(engine) }),
  });
}

/** The one account service, as the server and `npm run users` build it alike. */
export function userService(
  db: Db,
  files: FileStore,
  dataDir: string,
  audit: AuditLog,
  provisioning?: UserProvisioning,
): UserService {
  return new UserService(
    createUserRepository(db),
    provisioning,
    initialPasswordFile(dataDir),
    audit,
    ownerFilesIn(files),
    createUserUsageReader(db),
    new ImageTakeOver(createTakeOverRepository(db), files),
  );
}

/**
 * On Mosquitto with its dynamic-security plugin, Tessera provisions each user's login itself,
 * over a connection of its own as the plugin's admin (connected in the background).
 */
export function userProvisioning(
  config: Pick<BrokerSettings, 'externalBroker'>,
  log?: Logger,
): UserProvisioning {
  const broker = config.externalBroker;
  if (!broker || broker.userProvisioning !== 'dynamic-security') return noUserProvisioning;
  return new MosquittoUserProvisioning(connectDynamicSecurity(broker, log), broker.username, log);
}
