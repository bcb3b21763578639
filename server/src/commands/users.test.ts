import { errorText } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard } from '../services/login-guard.js';
import { openDatabase } from '../store/database.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository } from '../store/users.js';
import { tempDir } from '../testing/fixtures.js';
import { runEntry } from '../testing/processes.js';

let data: ReturnType<typeof tempDir>;
beforeEach(() => {
  data = tempDir();
});
afterEach(() => data.remove());

const users = (args: string[], stdin = '') =>
  runEntry('commands/users.ts', args, { DATA_DIR: data.dir }, stdin);

async function canSignIn(username: string, password: string): Promise<boolean> {
  const db = await openDatabase({ dataDir: data.dir });
  try {
    const auth = new AuthService(
      createUserRepository(db),
      createSessionRepository(db),
      new MemoryLoginGuard(),
    );
    return (await auth.checkCredentials(username, password, 'test')).ok;
  } finally {
    await db.destroy();
  }
}

describe('npm run users', () => {
  it('adds a user whose password comes from stdin, lists, changes the password and removes', async () => {
    // The first user is the admin, whom the last-admin rule keeps.
    expect((await users(['add', 'boss'], 'boss-password\n')).code).toBe(0);
    const add = await users(['add', 'dora'], 'first-password\n');
    expect(add).toMatchObject({ code: 0, stdout: "User 'dora' created\n" });
    expect(await canSignIn('dora', 'first-password')).toBe(true);

    const list = await users(['list']);
    expect(list.stdout).toMatch(
      /^boss\t\d{4}-\d\d-\d\dT.*\tadmin\tenabled\ndora\t\d{4}-\d\d-\d\dT.*\tmember\tenabled\n$/,
    );

    expect((await users(['passwd', 'dora'], 'second-password\n')).code).toBe(0);
    expect(await canSignIn('dora', 'first-password')).toBe(false);
    expect(await canSignIn('dora', 'second-password')).toBe(true);

    expect(await users(['remove', 'dora'])).toMatchObject({
      code: 0,
      stdout: "User 'dora' removed with 0 LD and 0 HD images (0 files)\n",
    });
    expect(await canSignIn('dora', 'second-password')).toBe(false);
    expect((await users(['list'])).stdout).not.toContain('dora');
    expect(await users(['remove', 'boss'])).toMatchObject({
      code: 2,
      stderr: `${errorText('LAST_ADMIN', 'boss')}\n`,
    });
  }, 60_000);

  it('refuses what it cannot do, with a message and exit code 2', async () => {
    await users(['add', 'dora'], 'first-password\n');
    expect(await users(['add', 'dora'], 'another-password\n')).toMatchObject({
      code: 2,
      stderr: "User 'dora' already exists\n",
    });
    expect((await users(['add', 'eve'], 'short\n')).stderr).toMatch(/at least 8 characters/);
    expect((await users(['add', 'a/b'], 'long-enough\n')).stderr).toMatch(/not a valid username/);
    expect((await users(['add', 'evé'], 'long-enough\n')).stderr).toMatch(/not a valid username/);
    expect((await users(['passwd', 'nobody'], 'long-enough\n')).stderr).toBe("No user 'nobody'\n");
    expect((await users(['remove', 'nobody'])).code).toBe(2);
    const usage = await users(['add']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Usage: npm run users/);
  }, 60_000);

  it('never takes the password from the command line', async () => {
    // An extra argument is a role (issue 29), never a password: anything else is refused.
    const refused = await users(['add', 'dora', 'argv-password'], 'stdin-password\n');
    expect(refused).toMatchObject({
      code: 2,
      stderr: `${errorText('ROLE_UNKNOWN', 'argv-password')}\n`,
    });
    expect(await canSignIn('dora', 'argv-password')).toBe(false);
    await users(['add', 'dora', 'member'], 'stdin-password\n');
    expect(await canSignIn('dora', 'argv-password')).toBe(false);
    expect(await canSignIn('dora', 'stdin-password')).toBe(true);
  }, 60_000);
});
