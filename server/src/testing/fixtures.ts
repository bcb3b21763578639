import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ApiTokenService } from '../services/api-tokens.js';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard, type LoginLimits } from '../services/login-guard.js';
import { UserService } from '../services/users.js';
import { createApiTokenRepository } from '../store/api-tokens.js';
import { openDatabase, type Db } from '../store/database.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository } from '../store/users.js';

/** A fresh directory under the system's temp folder, removed by the returned function. */
export function tempDir(prefix = 'tessera-test-'): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export const silentLogger = pino({ level: 'silent' });

export interface TestStore {
  dataDir: string;
  db: Db;
  auth: AuthService;
  users: UserService;
  /** Personal API tokens on the same database (issue 30, part 1). */
  apiTokens: ApiTokenService;
  close(): Promise<void>;
}

/** A real SQLite file in a temp folder with the given users (password = `<name>-password`). */
export async function createTestStore(
  usernames: string[] = [],
  limits?: LoginLimits,
): Promise<TestStore> {
  const { dir, remove } = tempDir();
  const db = await openDatabase({ dataDir: dir });
  const userRepo = createUserRepository(db);
  const users = new UserService(userRepo);
  for (const name of usernames) await users.add(name, passwordOf(name));
  const auth = new AuthService(userRepo, createSessionRepository(db), new MemoryLoginGuard(limits));
  return {
    dataDir: dir,
    db,
    auth,
    users,
    apiTokens: new ApiTokenService(createApiTokenRepository(db)),
    close: async () => {
      await db.destroy();
      remove();
    },
  };
}

export function passwordOf(username: string): string {
  return `${username}-password`;
}
