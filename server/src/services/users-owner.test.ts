import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCredentialChangeRepository } from '../store/credential-changes.js';
import { createUserRepository } from '../store/users.js';
import { freshSqliteDatabase, type TestDatabase } from '../testing/database.js';
import { passwordOf, silentLogger } from '../testing/fixtures.js';
import { CredentialsWatcher } from './credentials-watcher.js';
import { UserService } from './users.js';

let store: TestDatabase;
let users: UserService;

beforeEach(async () => {
  store = await freshSqliteDatabase();
  users = new UserService(createUserRepository(store.db));
  await users.add('admin', passwordOf('admin'));
  await users.add('mia', passwordOf('mia'));
});
afterEach(() => store.close());

describe("a command's owner, kept between commands (issue 28)", () => {
  it('is no owner once disabled or removed here, and a new account is a new owner', async () => {
    const first = await users.owner('mia');
    expect(first).toMatchObject({ username: 'mia' });
    await users.disable('mia');
    expect(await users.owner('mia')).toBeUndefined();
    await users.enable('mia');
    expect(await users.owner('mia')).toEqual(first);
    await users.remove('mia');
    expect(await users.owner('mia')).toBeUndefined();
    await users.add('mia', passwordOf('mia'));
    const anew = await users.owner('mia');
    expect(anew?.id).not.toBe(first?.id);
  });

  it("is looked up again after another process's change, which the credentials watcher tells", async () => {
    const before = await users.owner('mia');
    expect(before).toMatchObject({ username: 'mia' });
    // As `npm run users remove` and `add` would: another process on the same database.
    const other = await store.openAnother();
    const cli = new UserService(createUserRepository(other));
    let changed: Promise<void> = Promise.resolve();
    const told = new Promise<void>((resolve) => {
      const watcher = new CredentialsWatcher(
        createCredentialChangeRepository(store.db),
        (username) => {
          users.forgetOwner(username);
          watcher.stop();
          resolve();
        },
        silentLogger,
        10,
      );
      changed = watcher.start().then(async () => {
        await cli.remove('mia');
        await cli.add('mia', passwordOf('mia'));
      });
    });
    // Until the watcher's poll this process may still answer for the old account (its id is
    // never given again, so nothing of another user's is reached through it).
    await Promise.all([told, changed]);
    const after = await users.owner('mia');
    expect(after).toMatchObject({ username: 'mia' });
    expect(after?.id).not.toBe(before?.id);
    await other.destroy();
  });
});
