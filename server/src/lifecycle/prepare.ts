import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { buildContainer, type Container, type ContainerOverrides } from '../container.js';
import type { CreatedAdministrator } from '../services/users.js';
import { createInstanceRegistry } from '../store/instances.js';
import { dataFolderLockPath, lockDataFolder } from './data-folder-lock.js';
import { AuditRetention } from '../services/audit.js';

/** A process whose last beat is older than this is taken for gone. */
const INSTANCE_ALIVE_MS = 15_000;
const INSTANCE_BEAT_MS = 5_000;

/** The container, made ready for work, and how to let go of what it holds. */
export interface PreparedInstance {
  c: Container;
  /** The administrator made on a first start, with its password. */
  admin: CreatedAdministrator | undefined;
  /** The last step of every role's stop: closes what preparing built and leaves the registry. */
  release(): Promise<void>;
}

/**
 * What every role does first: the container, start-up repairs, the broker's logins, the admin.
 * The process registers itself among the running instances and keeps its row fresh, so that
 * another process starting beside it knows not to repair files that may be this one's.
 */
export async function prepareInstance(
  config: Config,
  overrides: ContainerOverrides,
  log: Logger,
): Promise<PreparedInstance> {
  // Before the container wipes the scratch folder, or a repair runs: a second start on the same
  // folder would otherwise break the live process's work before failing on the busy port.
  const unlock = await lockDataFolder(
    dataFolderLockPath(config),
    config.externalBroker ? 'its own INSTANCE_NAME or DATA_DIR' : 'its own DATA_DIR',
  );
  try {
    return await prepareLocked(config, overrides, log, unlock);
  } catch (err) {
    await unlock();
    throw err;
  }
}

async function prepareLocked(
  config: Config,
  overrides: ContainerOverrides,
  log: Logger,
  unlock: () => Promise<void>,
): Promise<PreparedInstance> {
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
  // The audit trail keeps AUDIT_RETENTION_DAYS: pruned now and daily (issue 29, part 5).
  const auditRetention = new AuditRetention(c.audit, config.auditRetentionDays, log);
  const release = async () => {
    auditRetention.stop();
    await c.provisioning.close();
    c.zips.close();
    await c.limits.close();
    clearInterval(beating);
    await instances.remove(config.instanceName).catch(() => undefined);
    await c.db.destroy();
    await unlock();
  };
  const reconciled = await c.userAdmin.reconcileBroker();
  if (Object.values(reconciled).some((names) => names.length > 0)) {
    log.info(reconciled, 'broker logins reconciled with the users');
  }
  const admin = await c.userAdmin.ensureAdministrator(config.adminPassword);
  // Said before anything else can fail: a start stopped by a busy port still tells where it is.
  const kept = admin ? admin.savedTo : await c.userAdmin.initialPasswordKept();
  if (kept) {
    log.info(
      { file: kept },
      `the first administrator's password is in ${kept} until it is changed (npm run users -- passwd admin)`,
    );
  } else if (!admin && config.adminPassword) {
    log.info('ADMIN_PASSWORD ignored: users exist already (it sets the first start only)');
  }
  await c.sessions.removeExpired(new Date());
  await auditRetention.start();
  return { c, admin, release };
}
