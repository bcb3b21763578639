import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userProvisioning } from '../container.js';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard } from '../services/login-guard.js';
import { UNUSABLE_HASH } from '../services/passwords.js';
import type { UserProvisioning } from '../services/user-provisioning.js';
import { UserService } from '../services/users.js';
import { openDatabase, type Db } from '../store/database.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository, type UserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import {
  externalBrokerOf,
  mosquittoAvailable,
  startMosquitto,
  type RunningMosquitto,
} from '../testing/mosquitto.js';
import { mqttClients } from '../testing/mqtt-clients.js';

/**
 * A single sign-on user has no password: on Mosquitto their session's messaging secret is
 * their login (issue 30, part 4), on a real Mosquitto with deploy/mosquitto and a SQLite file.
 */

const SERVICE = { username: 'tessera-service', password: 'tessera-service-password' };

let broker: RunningMosquitto;
const clients = mqttClients();

const connect = (username: string, password: string): Promise<MqttClient> =>
  clients.connect(broker.tcpUrl, username, password);

const closed = (client: MqttClient) =>
  new Promise<void>((resolve) => {
    if (!client.connected) resolve();
    client.once('close', () => resolve());
  });

describe.skipIf(!mosquittoAvailable)('single sign-on session secrets on Mosquitto', () => {
  let data: ReturnType<typeof tempDir>;
  let db: Db;
  let provisioning: UserProvisioning;
  let repo: UserRepository;
  let auth: AuthService;

  beforeAll(async () => {
    broker = await startMosquitto(SERVICE);
  }, 30_000);

  afterAll(async () => {
    await broker?.stop();
  });

  beforeEach(async () => {
    data = tempDir();
    db = await openDatabase({ dataDir: data.dir });
    provisioning = userProvisioning({ externalBroker: externalBrokerOf(broker, SERVICE) });
    repo = createUserRepository(db);
    // An external broker: no messaging secrets for password sessions, as in production.
    auth = new AuthService(
      repo,
      createSessionRepository(db),
      new MemoryLoginGuard(),
      undefined,
      provisioning,
      false,
    );
  });

  afterEach(async () => {
    await clients.endAll();
    await provisioning.reconcile([]);
    await provisioning.close();
    await db.destroy();
    data.remove();
  });

  async function ssoSession(username: string) {
    const user = await repo.create(username, UNUSABLE_HASH, 'member');
    const { token } = await auth.startSsoSession({ userId: user.id, username });
    const login = await auth.ssoMessagingSecret(token);
    if (!login) throw new Error('no messaging secret for a single sign-on session');
    return { token, secret: login.messagingSecret };
  }

  it("logs the user in with the session's secret until the session ends", async () => {
    const { token, secret } = await ssoSession('sofia');
    const tab = await connect('sofia', secret);
    expect(tab.connected).toBe(true);
    await tab.subscribeAsync('query/list-tag/user/sofia');

    const gone = closed(tab);
    await auth.logout(token);
    // Signing out closes the live connection and the secret opens no new one.
    await gone;
    await expect(connect('sofia', secret)).rejects.toThrow(/Not authorized/);
  });

  it('leaves password users as they are, and a newer session replaces the older secret', async () => {
    const users = new UserService(repo, provisioning);
    await users.add('boss', passwordOf('boss'));
    const first = await ssoSession('sofia');
    const sofia = await repo.findByUsername('sofia');
    if (!sofia) throw new Error('sofia was not created');
    const second = await auth.startSsoSession({ userId: sofia.id, username: 'sofia' });
    const newer = (await auth.ssoMessagingSecret(second.token))?.messagingSecret ?? '';
    await expect(connect('sofia', first.secret)).rejects.toThrow(/Not authorized/);
    const tab = await connect('sofia', newer);
    // The older session's sign-out does not end the newer one's login.
    await auth.logout(first.token);
    await connect('sofia', newer);
    expect(tab.connected).toBe(true);
    // The password user's login is untouched.
    await connect('boss', passwordOf('boss'));
  });

  it('turns an expired secret off at the next start', async () => {
    const { secret } = await ssoSession('sofia');
    await connect('sofia', secret);
    // Reconciled as a start does, after the session's end (the clock moved on 13 hours).
    const later = Date.now() + 13 * 60 * 60 * 1000;
    const realNow = Date.now;
    Date.now = () => later;
    try {
      const result = await provisioning.reconcile([
        { username: 'sofia', passwordHash: UNUSABLE_HASH },
      ]);
      expect(result.disabled).toEqual(['sofia']);
    } finally {
      Date.now = realNow;
    }
    await expect(connect('sofia', secret)).rejects.toThrow(/Not authorized/);
  });
});
