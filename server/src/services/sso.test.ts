import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from './audit.js';
import { SsoSignIn } from './sso.js';
import { createAuditRepository } from '../store/audit.js';
import { createUserRepository } from '../store/users.js';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';

// The rules of a single sign-on (issue 30, part 4) on a real SQLite file: who the person is,
// their role from the claim, and who is refused. The provider's checks come before (oidc-flow.ts).

const ISSUER = 'https://id.example';
let store: TestStore;
let sso: SsoSignIn;
let audit: AuditLog;

beforeEach(async () => {
  store = await createTestStore(['root', 'ana']);
  audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  sso = new SsoSignIn(createUserRepository(store.db), store.auth, audit, {
    issuer: ISSUER,
    usernameClaim: 'preferred_username',
    roleClaim: 'groups',
    adminValue: 'admins',
  });
});
afterEach(() => store.close());

const users = () => createUserRepository(store.db);

describe('a single sign-on', () => {
  it('creates a new person as a user without a usable password, with a live session', async () => {
    const result = await sso.signIn({ sub: 's1', preferred_username: 'sofia' }, '10.0.0.7');
    expect(result).toMatchObject({ ok: true, username: 'sofia' });
    if (!result.ok) return;
    expect(await store.auth.sessionUser(result.token)).toMatchObject({
      username: 'sofia',
      role: 'member',
    });
    expect(await store.auth.ssoMessagingSecret(result.token)).toMatchObject({ username: 'sofia' });
    // No password signs them in.
    expect((await store.auth.login('sofia', '', '10.0.0.7')).ok).toBe(false);
    const trail = await audit.list({ target: 'sofia' });
    expect(trail.entries.map((e) => [e.action, e.details['channel']])).toEqual([
      ['sign-in', 'sso'],
      ['user-created', 'sso'],
    ]);
  });

  it('matches an existing user by the username claim, whose password still works', async () => {
    const result = await sso.signIn({ sub: 's2', preferred_username: 'ana' }, '10.0.0.7');
    expect(result).toMatchObject({ ok: true, username: 'ana' });
    expect((await store.auth.login('ana', passwordOf('ana'), '10.0.0.7')).ok).toBe(true);
  });

  it('follows the role claim at every sign-in', async () => {
    await sso.signIn({ sub: 's3', preferred_username: 'marta', groups: ['admins'] }, '10.0.0.7');
    expect((await users().findByUsername('marta'))?.role).toBe('admin');
    await sso.signIn({ sub: 's3', preferred_username: 'marta', groups: ['staff'] }, '10.0.0.7');
    expect((await users().findByUsername('marta'))?.role).toBe('member');
  });

  it('never takes the last admin away', async () => {
    // root is the only admin: the claim saying otherwise does not leave the install without one.
    const result = await sso.signIn(
      { sub: 's4', preferred_username: 'root', groups: [] },
      '10.0.0.7',
    );
    expect(result.ok).toBe(true);
    expect((await users().findByUsername('root'))?.role).toBe('admin');
  });

  it("keeps the provider's ID token with the session for its logout, and nothing for a password one", async () => {
    const result = await sso.signIn(
      { sub: 's6', preferred_username: 'ines' },
      '10.0.0.7',
      'header.payload.signature',
    );
    if (!result.ok) throw new Error('the sign-in was refused');
    // The embedded broker: the tab connects as the user, with the session's secret.
    expect(await store.auth.ssoMessagingSecret(result.token)).toMatchObject({
      username: 'ines',
      messagingUsername: 'ines',
    });
    expect(await store.auth.logout(result.token)).toEqual({ idToken: 'header.payload.signature' });
    expect(await store.auth.sessionUser(result.token)).toBeUndefined();

    const password = await store.auth.login('ana', passwordOf('ana'), '10.0.0.7');
    if (!password.ok) throw new Error('the password sign-in was refused');
    expect(await store.auth.logout(password.token)).toEqual({});
  });

  it('refuses a disabled account and opens no session', async () => {
    await store.users.disable('ana', { name: 'cli' });
    const result = await sso.signIn({ sub: 's5', preferred_username: 'ana' }, '10.0.0.7');
    expect(result).toEqual({ ok: false, code: 'account-disabled' });
  });
});
