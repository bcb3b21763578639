import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The file name, in DATA_DIR, of a generated first administrator password. */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

/**
 * A generated first password kept in `DATA_DIR/initial-admin-password`, readable by the server's
 * user alone (mode 600), until it is changed: the log line showing it may be missed, or printed
 * by a start that failed before it was seen.
 */
export function initialPasswordFile(dataDir: string) {
  const location = path.join(dataDir, INITIAL_PASSWORD_FILE);
  return {
    location,
    async save(password: string): Promise<void> {
      await fs.mkdir(dataDir, { recursive: true });
      // Written whole under another name, then renamed: never half a password.
      const partial = `${location}.${randomBytes(4).toString('hex')}.partial`;
      await fs.writeFile(partial, `${password}\n`, { mode: 0o600, flag: 'wx' });
      await fs.rename(partial, location);
    },
    async read(): Promise<string | undefined> {
      try {
        return (await fs.readFile(location, 'utf8')).replace(/\r?\n$/, '');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async remove(): Promise<void> {
      await fs.rm(location, { force: true });
    },
  };
}
