import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../services/passwords.js';
import { UserService } from '../services/users.js';
import { openDatabase, type Db } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { tempDir } from '../testing/fixtures.js';
import { initialPasswordFile } from './initial-password-file.js';

let data: ReturnType<typeof tempDir>;
let db: Db;
beforeEach(async () => {
  data = tempDir();
  db = await openDatabase({ dataDir: data.dir });
});
afterEach(async () => {
  await db.destroy();
  data.remove();
});

const file = () => path.join(data.dir, 'initial-admin-password');
const service = () =>
  new UserService(createUserRepository(db), undefined, initialPasswordFile(data.dir));

describe('the first administrator password file (issue 23, part 3)', () => {
  it('is written before the admin exists, readable by its owner alone', async () => {
    const created = await service().ensureAdministrator();
    expect(created?.savedTo).toBe(file());
    expect(fs.readFileSync(file(), 'utf8')).toBe(`${created?.password}\n`);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(await service().initialPasswordKept()).toBe(file());
  });

  it('is removed once the password is changed, by any path', async () => {
    await service().ensureAdministrator();
    // Another path than UserService: the hash changed in the database itself.
    await createUserRepository(db).updatePasswordHash('admin', await hashPassword('elsewhere-1'));
    expect(await service().initialPasswordKept()).toBeUndefined();
    expect(fs.existsSync(file())).toBe(false);
  });

  it('is removed when the admin is removed, and never written for ADMIN_PASSWORD', async () => {
    const users = service();
    await users.ensureAdministrator();
    // Another admin first: the last enabled admin cannot be removed (issue 29).
    await users.add('carol', 'carol-password', 'admin');
    await users.remove('admin');
    expect(fs.existsSync(file())).toBe(false);

    await db.deleteFrom('users').execute();
    const given = await users.ensureAdministrator('given-password');
    expect(given).toEqual({ username: 'admin', password: 'given-password' });
    expect(fs.existsSync(file())).toBe(false);
  });
});
