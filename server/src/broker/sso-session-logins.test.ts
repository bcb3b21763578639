import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userProvisioning } from '../container.js';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard } from '../services/login-guard.js';
import { UNUSABLE_HASH } from '../services/passwords.js';
import type { UserProvisioning } from '../services/user-provisioning.js';
import { UserService } from '../services/users.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository, type UserRepository } from '../store/users.js';
import { passwordOf } from '../testing/fixtures.js';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { mqttClients } from '../testing/mqtt-clients.js';
import { TestClient } from '../testing/test-client.js';
import { startTestServer, UNLIMITED_PUBLISHING, type TestServer } from '../testing/test-server.js';

/**
 * A single sign-on user has no password: on Mosquitto each of their sessions is a login of its
 * own (issue 30, part 4), holding the user's role, its messaging secret as its password. A real
 * Tessera server answers on a real Mosquitto (deploy/mosquitto); the sessions are made and ended
 * as another server process beside it would, through the same database and broker.
 */

const SESSION_LOGIN = /^[a-z]+~sso~[0-9a-f]{16}$/;
const TWELVE_HOURS_AND_MORE = 13 * 60 * 60 * 1000;

describe.skipIf(!mosquittoAvailable)('single sign-on sessions as Mosquitto logins', () => {
  let t: TestServer;
  let provisioning: UserProvisioning;
  let repo: UserRepository;
  let users: UserService;
  let auth: AuthService;
  const raw = mqttClients();
  const tabs: TestClient[] = [];

  beforeAll(async () => {
    t = await startTestServer(['alice'], 'mosquitto', {}, UNLIMITED_PUBLISHING);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  beforeEach(() => {
    provisioning = userProvisioning(t.config);
    repo = createUserRepository(t.db);
    users = new UserService(repo, provisioning);
    // An external broker: no messaging secrets for password sessions, as in production.
    auth = new AuthService(
      repo,
      createSessionRepository(t.db),
      new MemoryLoginGuard(),
      undefined,
      provisioning,
      false,
    );
  });
  afterEach(async () => {
    await Promise.all(tabs.splice(0).map((tab) => tab.close()));
    await raw.endAll();
    await provisioning.close();
  });

  async function ssoSession(username: string) {
    const user =
      (await repo.findByUsername(username)) ?? (await repo.create(username, UNUSABLE_HASH));
    const { token } = await auth.startSsoSession({ userId: user.id, username });
    const login = await auth.ssoMessagingSecret(token);
    if (!login) throw new Error('no messaging login for a single sign-on session');
    return { token, ...login };
  }

  /** A browser tab of that session: the session's login, the user's topics. */
  async function tab(login: {
    username: string;
    messagingUsername: string;
    messagingSecret: string;
  }) {
    const client = await TestClient.connect(
      t.brokerUrl,
      login.username,
      login.messagingSecret,
      [],
      login.messagingUsername,
    );
    tabs.push(client);
    return client;
  }

  const refused = (login: { messagingUsername: string; messagingSecret: string }) =>
    expect(
      raw.connect(t.brokerUrl, login.messagingUsername, login.messagingSecret),
    ).rejects.toThrow(/Not authorized/);

  const closed = (client: TestClient) =>
    new Promise<void>((resolve) => {
      if (!client.mqtt.connected) resolve();
      client.mqtt.once('close', () => resolve());
    });

  /** `run` with the clock moved on past a single sign-on session's 12 hours. */
  async function thirteenHoursLater<T>(run: () => Promise<T>): Promise<T> {
    const later = Date.now() + TWELVE_HOURS_AND_MORE;
    const realNow = Date.now;
    Date.now = () => later;
    try {
      return await run();
    } finally {
      Date.now = realNow;
    }
  }

  const listTags = (client: TestClient) => client.call('list-tag', { page: 1, size: 10 });

  it('gives two sessions of one user two logins that are answered side by side', async () => {
    const first = await ssoSession('sofia');
    const second = await ssoSession('sofia');
    expect(first.messagingUsername).toMatch(SESSION_LOGIN);
    expect(second.messagingUsername).toMatch(SESSION_LOGIN);
    expect(first.messagingUsername).not.toBe(second.messagingUsername);
    expect(first.username).toBe('sofia');

    const [one, two] = await Promise.all([tab(first), tab(second)]);
    const answers = await Promise.all([listTags(one), listTags(two)]);
    for (const answer of answers) expect(answer).toMatchObject({ user: 'sofia', success: true });
    // The user's role and nothing more: another user's topics stay closed.
    await expect(one.mqtt.subscribeAsync('query/list-tag/user/alice')).rejects.toThrow(/Subscribe/);
    // A password user of the same broker is untouched, and so is the sessions' user's role.
    const alice = await TestClient.connect(t.brokerUrl, 'alice', passwordOf('alice'));
    tabs.push(alice);
    expect(await listTags(alice)).toMatchObject({ user: 'alice', success: true });
    await auth.logout(first.token);
    await auth.logout(second.token);
  });

  it('closes only the signed-out session: its login goes, the other answers on', async () => {
    const first = await ssoSession('sofia');
    const second = await ssoSession('sofia');
    const [one, two] = await Promise.all([tab(first), tab(second)]);

    const gone = closed(one);
    await auth.logout(first.token);
    await gone;
    await refused(first);
    expect(two.mqtt.connected).toBe(true);
    expect(await listTags(two)).toMatchObject({ user: 'sofia', success: true });
    // And a new tab of the other session still gets in.
    expect(await listTags(await tab(second))).toMatchObject({ success: true });
    await auth.logout(second.token);
    await refused(second);
  });

  it('lets a password sign-in and a single sign-on of one account work side by side', async () => {
    await users.add('nora', passwordOf('nora'));
    const session = await ssoSession('nora');
    const [byPassword, bySso] = await Promise.all([
      TestClient.connect(t.brokerUrl, 'nora', passwordOf('nora')),
      tab(session),
    ]);
    tabs.push(byPassword);
    expect(await listTags(byPassword)).toMatchObject({ user: 'nora', success: true });
    expect(await listTags(bySso)).toMatchObject({ user: 'nora', success: true });
    // Signing out of the single sign-on session leaves the password login alone.
    await auth.logout(session.token);
    expect(await listTags(byPassword)).toMatchObject({ success: true });
    await users.remove('nora');
  });

  it("deletes a disabled user's sessions' logins, closing their connections", async () => {
    const first = await ssoSession('dora');
    const second = await ssoSession('dora');
    const [one, two] = await Promise.all([tab(first), tab(second)]);
    const bothGone = Promise.all([closed(one), closed(two)]);
    await users.disable('dora');
    await bothGone;
    await refused(first);
    await refused(second);
  });

  it('deletes expired sessions’ logins, and those of gone users, at the next start', async () => {
    const live = await ssoSession('ines');
    const stale = await ssoSession('ines');
    const orphan = await ssoSession('omar');
    // omar leaves the database behind Tessera's back (the broker was not told).
    await t.db.deleteFrom('users').where('username', '=', 'omar').execute();

    const now = await users.reconcileBroker();
    expect(now.sessionsEnded).toEqual([orphan.messagingUsername]);
    await refused(orphan);
    expect(await listTags(await tab(live))).toMatchObject({ user: 'ines', success: true });

    // Reconciled as a start does, after the sessions' end (the clock moved on 13 hours).
    const result = await thirteenHoursLater(() => users.reconcileBroker());
    expect(result.sessionsEnded.sort()).toEqual(
      [live.messagingUsername, stale.messagingUsername].sort(),
    );
    await refused(live);
    await refused(stale);
    // The password user's login is untouched.
    expect((await raw.connect(t.brokerUrl, 'alice', passwordOf('alice'))).connected).toBe(true);
  });
});
