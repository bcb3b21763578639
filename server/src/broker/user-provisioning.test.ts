import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userProvisioning } from '../container.js';
import type { BrokerSettings } from './settings.js';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard } from '../services/login-guard.js';
import { UserService } from '../services/users.js';
import { openDatabase, type Db } from '../store/database.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { mqttClients } from '../testing/mqtt-clients.js';
import {
  externalBrokerOf,
  mosquittoAvailable,
  startMosquitto,
  type RunningMosquitto,
} from '../testing/mosquitto.js';
import { runEntry } from '../testing/processes.js';
import { connectDynamicSecurity, type DynamicSecurity } from './dynamic-security.js';
import type { UserProvisioning } from '../services/user-provisioning.js';

/**
 * Tessera keeps Mosquitto's logins in step with its users through the dynamic-security plugin:
 * on a real Mosquitto started with deploy/mosquitto, with a real SQLite file.
 */

const SERVICE = { username: 'tessera-service', password: 'tessera-service-password' };

let broker: RunningMosquitto;
const clients = mqttClients();

const connect = (username: string, password: string): Promise<MqttClient> =>
  clients.connect(broker.tcpUrl, username, password);

/** Whether the broker closes the connection within the time (the CLI needs seconds to start). */
const closesSoon = (client: MqttClient, withinMs = 3000) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe.skipIf(!mosquittoAvailable)('user logins on Mosquitto (dynamic security)', () => {
  let data: ReturnType<typeof tempDir>;
  let db: Db;
  let provisioning: UserProvisioning;
  let users: UserService;
  let auth: AuthService;
  /** The plugin, asked directly, to see what an operator would see. */
  let admin: DynamicSecurity;

  const config = (): Pick<BrokerSettings, 'externalBroker'> => ({
    externalBroker: externalBrokerOf(broker, SERVICE),
  });

  beforeAll(async () => {
    broker = await startMosquitto(SERVICE);
    admin = connectDynamicSecurity({ url: broker.tcpUrl, ...SERVICE });
  }, 30_000);

  afterAll(async () => {
    await admin?.close();
    await broker?.stop();
  });

  beforeEach(async () => {
    data = tempDir();
    db = await openDatabase({ dataDir: data.dir });
    provisioning = userProvisioning(config());
    const repo = createUserRepository(db);
    users = new UserService(repo, provisioning);
    auth = new AuthService(
      repo,
      createSessionRepository(db),
      new MemoryLoginGuard(),
      undefined,
      provisioning,
    );
  });

  afterEach(async () => {
    await clients.endAll();
    // Each test starts from a broker with no Tessera user left.
    await provisioning.reconcile([]);
    await provisioning.close();
    await db.destroy();
    data.remove();
  });

  it('gives an added user a login with their password, and ends it with a new password or removal', async () => {
    // The first user is the admin, whom the last-admin rule keeps (issue 29).
    await users.add('boss', passwordOf('boss'));
    await users.add('alice', passwordOf('alice'));
    const alice = await connect('alice', passwordOf('alice'));
    expect(alice.connected).toBe(true);

    // A new password closes the live connection and only the new one opens a connection.
    const closedByPasswd = closesSoon(alice);
    await users.setPassword('alice', 'a-brand-new-password');
    expect(await closedByPasswd).toBe(true);
    await expect(connect('alice', passwordOf('alice'))).rejects.toThrow(/Not authorized/);
    const again = await connect('alice', 'a-brand-new-password');

    const closedByRemoval = closesSoon(again);
    await users.remove('alice');
    expect(await closedByRemoval).toBe(true);
    await expect(connect('alice', 'a-brand-new-password')).rejects.toThrow(/Not authorized/);
  });

  it('limits each user to their own command and query topics', async () => {
    await users.add('alice', passwordOf('alice'));
    await users.add('bob', passwordOf('bob'));
    const alice = await connect('alice', passwordOf('alice'));
    await alice.subscribeAsync('query/list-tag/user/alice');
    await expect(alice.subscribeAsync('query/list-tag/user/bob')).rejects.toThrow(/Subscribe/);
    await expect(alice.subscribeAsync('command/+/user/+')).rejects.toThrow(/Subscribe/);
    const [bobRole] = await admin.runChecked([
      { command: 'getRole', rolename: 'tessera-user-bob' },
    ]);
    expect((bobRole?.data as { role: { acls: unknown[] } }).role.acls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ acltype: 'publishClientSend', topic: 'command/+/user/bob' }),
        expect.objectContaining({ acltype: 'subscribePattern', topic: 'query/+/user/bob' }),
      ]),
    );
  });

  it('reconciles at start: removes logins of gone users, repairs roles, keeps other logins', async () => {
    await users.add('alice', passwordOf('alice'));
    await users.add('carol', passwordOf('carol'));
    // Behind Tessera's back: carol leaves the database, alice's role gains a wider rule, and
    // another application has a login of its own on the same broker.
    await db.deleteFrom('users').where('username', '=', 'carol').execute();
    await admin.runChecked([
      {
        command: 'addRoleACL',
        rolename: 'tessera-user-alice',
        acltype: 'subscribePattern',
        topic: 'query/#',
        allow: true,
      },
      { command: 'createClient', username: 'other-app', password: 'other-app-password' },
    ]);

    const report = await users.reconcileBroker();
    expect(report).toMatchObject({ removed: ['carol'], repaired: ['alice'], created: [] });
    await expect(connect('carol', passwordOf('carol'))).rejects.toThrow(/Not authorized/);
    const alice = await connect('alice', passwordOf('alice'));
    await expect(alice.subscribeAsync('query/list-tag/user/bob')).rejects.toThrow(/Subscribe/);
    expect((await connect('other-app', 'other-app-password')).connected).toBe(true);
    await admin.runChecked([{ command: 'deleteClient', username: 'other-app' }]);
  });

  it('turns off a login whose password changed while the broker was away, until the next sign-in', async () => {
    await users.add('alice', passwordOf('alice'));
    await users.add('dora', passwordOf('dora'));
    // Changed with no broker to tell (another Tessera, or Mosquitto down), and a user the
    // broker never heard of.
    const offline = new UserService(createUserRepository(db));
    await offline.setPassword('alice', 'changed-while-away');
    await offline.add('erin', passwordOf('erin'));

    const report = await users.reconcileBroker();
    expect(report).toMatchObject({ disabled: ['alice'], created: ['erin'], removed: [] });
    await expect(connect('alice', passwordOf('alice'))).rejects.toThrow(/Not authorized/);
    await expect(connect('alice', 'changed-while-away')).rejects.toThrow(/Not authorized/);
    await expect(connect('erin', passwordOf('erin'))).rejects.toThrow(/Not authorized/);
    expect((await connect('dora', passwordOf('dora'))).connected).toBe(true);

    // Signing in to Tessera gives the broker the password, before the browser connects.
    expect((await auth.login('alice', 'changed-while-away', '127.0.0.1')).ok).toBe(true);
    expect((await connect('alice', 'changed-while-away')).connected).toBe(true);
    expect((await auth.login('erin', passwordOf('erin'), '127.0.0.1')).ok).toBe(true);
    expect((await connect('erin', passwordOf('erin'))).connected).toBe(true);
  });

  it('signing in again does not close the user’s open connections', async () => {
    await users.add('alice', passwordOf('alice'));
    const tab = await connect('alice', passwordOf('alice'));
    let closed = false;
    tab.once('close', () => (closed = true));
    expect((await auth.login('alice', passwordOf('alice'), '127.0.0.1')).ok).toBe(true);
    // The login's commands to the broker were answered before it returned; a kick they made
    // would close the tab before the broker answers the tab's next request.
    await tab.subscribeAsync('query/list-tag/user/alice');
    expect(closed).toBe(false);
    expect(tab.connected).toBe(true);
  });

  it('npm run users adds, re-passwords and removes the broker login with MQTT_URL set', async () => {
    const env = {
      DATA_DIR: data.dir,
      MQTT_URL: broker.tcpUrl,
      MQTT_USERNAME: SERVICE.username,
      MQTT_PASSWORD: SERVICE.password,
      PUBLIC_MQTT_URL: broker.wsUrl,
    };
    // The first user is the admin, whom the last-admin rule keeps (issue 29).
    await users.add('boss', passwordOf('boss'));
    expect(
      await runEntry('commands/users.ts', ['add', 'frank'], env, 'franks-password\n'),
    ).toMatchObject({ code: 0 });
    const first = await connect('frank', 'franks-password');
    const closedByPasswd = closesSoon(first, 30_000);
    expect(
      await runEntry('commands/users.ts', ['passwd', 'frank'], env, 'franks-new-password\n'),
    ).toMatchObject({ code: 0 });
    expect(await closedByPasswd).toBe(true);
    await expect(connect('frank', 'franks-password')).rejects.toThrow(/Not authorized/);
    const frank = await connect('frank', 'franks-new-password');
    const closed = closesSoon(frank, 30_000);
    expect(await runEntry('commands/users.ts', ['remove', 'frank'], env)).toMatchObject({
      code: 0,
    });
    expect(await closed).toBe(true);
    await expect(connect('frank', 'franks-new-password')).rejects.toThrow(/Not authorized/);
  }, 60_000);
});
