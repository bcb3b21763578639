import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

/** Another live process holds the lock: this one must not touch the folder's files. */
export class DataFolderBusyError extends Error {
  override name = 'DataFolderBusyError';
}

/**
 * The lock file of what a start repairs: the scratch folder (wiped at start) and, with SQLite,
 * the database. On the embedded broker one process owns the whole data folder; with an external
 * broker several may share it, each with its own scratch folder under its INSTANCE_NAME.
 */
export function dataFolderLockPath(
  config: Pick<Config, 'dataDir' | 'instanceName'> & {
    externalBroker?: unknown;
  },
): string {
  const name = config.externalBroker ? `tessera-${config.instanceName}.lock` : 'tessera.lock';
  return path.join(config.dataDir, name);
}

/**
 * Takes the lock before any start-up repair (issue 22, part 7): a file created exclusively that
 * holds this process's pid. A lock whose pid is no longer running (a SIGKILLed or crashed
 * process) is stale and taken over, so a crash never blocks the next start. Two starts racing
 * over the same stale lock could both take it; starts are seconds apart in practice.
 * Resolves with the release, which removes the file if it is still this process's.
 */
export async function lockDataFolder(
  lockFile: string,
  holder: string,
): Promise<() => Promise<void>> {
  await fsp.mkdir(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.writeFile(lockFile, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const pid = await holderPid(lockFile);
    if (pid !== undefined && isRunning(pid)) {
      throw new DataFolderBusyError(
        `another Tessera process (pid ${pid}) is running on the data folder ${path.dirname(lockFile)}` +
          ` (lock file ${path.basename(lockFile)}): stop it first, or give this one ${holder}`,
      );
    }
    await fsp.rm(lockFile, { force: true });
  }
  return async () => {
    if ((await holderPid(lockFile)) === process.pid) await fsp.rm(lockFile, { force: true });
  };
}

async function holderPid(lockFile: string): Promise<number | undefined> {
  const text = await fsp.readFile(lockFile, 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Signal 0 checks that the process exists; EPERM: it does, under another user. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
