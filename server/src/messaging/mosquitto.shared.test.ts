import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserCommandRate } from './service.js';
import { MessagingService, SHARED_COMMAND_SUBSCRIPTION, sharedRateWindow } from './service.js';
import { connectServiceClient } from './connection.js';
import type { CommandHandlers } from './handlers/index.js';
import { openDatabase, type Db } from '../store/database.js';
import { databaseLimiters } from '../store/rate-limits.js';
import { REFUSAL_ANSWERS } from '../limits/user-budget.js';
import { createUserRepository } from '../store/users.js';
import { UserService } from '../services/users.js';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';
import { mosquittoAvailable, startMosquitto, type RunningMosquitto } from '../testing/mosquitto.js';
import { TestClient } from '../testing/test-client.js';
import { strictFake } from '../testing/strict-fake.js';

/**
 * Several server processes on one Mosquitto (with the shipped config and dynamic security): the
 * command subscription is shared, so each command is answered by exactly one of them, and a
 * user's command rate is counted in the database they share.
 */

const SERVICE = { username: 'tessera-service', password: passwordOf('tessera-service') };
const USER = 'alice';

describe.skipIf(!mosquittoAvailable)('several messaging services on one Mosquitto', () => {
  let broker: RunningMosquitto;
  let store: TestStore;
  const running: MessagingService[] = [];
  const databases: Db[] = [];
  const clients: TestClient[] = [];

  beforeAll(async () => {
    broker = await startMosquitto(SERVICE, [{ username: USER, password: passwordOf(USER) }]);
    store = await createTestStore([USER]);
  }, 30_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((s) => s.stop()));
    await Promise.all(databases.splice(0).map((db) => db.destroy()));
  });

  afterAll(async () => {
    await store?.close();
    await broker?.stop();
  });

  /** One process's messaging service: its own connection to the broker and to the database. */
  async function startService(
    answered: string[],
    options: { shared?: boolean; rate?: UserCommandRate; sharedRate?: boolean } = {},
  ) {
    const db = await openDatabase({ dataDir: store.dataDir });
    databases.push(db);
    const handlers = {
      'list-tag': (_owner: unknown, command: { transactionid: string }) => {
        answered.push(command.transactionid);
        return Promise.resolve({ tags: [], page: 1, size: 10, total: 0 });
      },
    } as unknown as CommandHandlers;
    const service = new MessagingService(
      await connectServiceClient({ url: broker.tcpUrl, ...SERVICE }, silentLogger),
      new UserService(createUserRepository(db)),
      handlers,
      strictFake('hdOrders'),
      silentLogger,
      options.rate,
      {
        ...(options.shared !== false && { subscription: SHARED_COMMAND_SUBSCRIPTION }),
        ...(options.sharedRate &&
          options.rate && {
            sharedRate: databaseLimiters(db)(sharedRateWindow(options.rate)),
          }),
      },
    );
    await service.start();
    running.push(service);
  }

  async function connectUser(): Promise<TestClient> {
    const client = await TestClient.connect(broker.tcpUrl, USER, passwordOf(USER));
    clients.push(client);
    return client;
  }

  /** Sends `count` list-tag commands at once; the answers received, by transactionid. */
  async function sendCommands(client: TestClient, count: number) {
    const ids = Array.from({ length: count }, () => randomUUID());
    await Promise.all(
      ids.map((transactionid) =>
        client.send(client.commandTopic('list-tag'), {
          transactionid,
          user: USER,
          page: 1,
          size: 10,
        }),
      ),
    );
    return ids;
  }

  /**
   * The answers to `ids` once every command has been handled: a round trip on the user's
   * connection puts them all on the services' connections; stopping a service finishes what it
   * took and sends its answers; a marker published after that reaches the user after them.
   */
  async function answersTo(client: TestClient, ids: string[]) {
    const topic = `query/list-tag/user/${USER}`;
    await client.mqtt.subscribeAsync(topic);
    await Promise.all(running.splice(0).map((s) => s.stop()));
    const marker = await mqtt.connectAsync(broker.tcpUrl, { ...SERVICE, reconnectPeriod: 0 });
    const fence = `fence-${randomUUID()}`;
    const arrived = new Promise<void>((resolve) =>
      client.mqtt.on('message', (t, payload) => {
        if (t === topic && payload.toString() === fence) resolve();
      }),
    );
    await marker.publishAsync(topic, fence);
    await arrived;
    await marker.endAsync();
    const wanted = new Set(ids);
    return client.received.filter((m) => wanted.has(String(m.body['transactionid'])));
  }

  it('answers each of 200 commands exactly once with two services sharing the subscription', async () => {
    const first: string[] = [];
    const second: string[] = [];
    await startService(first);
    await startService(second);
    const client = await connectUser();

    const ids = await sendCommands(client, 200);
    const answers = await answersTo(client, ids);

    expect(answers).toHaveLength(200);
    expect(new Set(answers.map((a) => a.body['transactionid']))).toEqual(new Set(ids));
    expect(answers.filter((a) => a.body['success'] !== true).map((a) => a.body['error'])).toEqual(
      [],
    );
    // Both processes took part, and no command reached both.
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect(first.length + second.length).toBe(200);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });

  it('would answer twice without the shared subscription (what the test above rules out)', async () => {
    const first: string[] = [];
    const second: string[] = [];
    await startService(first, { shared: false });
    await startService(second, { shared: false });
    const client = await connectUser();

    const answers = await answersTo(client, await sendCommands(client, 5));

    expect(answers).toHaveLength(10);
  });

  it("holds one user's command rate across two services (counted in the database)", async () => {
    // 10 commands per 10 s window, whichever process answers them.
    const rate = { perSecond: 1, burst: 10 };
    const answered: string[] = [];
    await startService(answered, { rate, sharedRate: true });
    await startService(answered, { rate, sharedRate: true });
    const client = await connectUser();

    const answers = await answersTo(client, await sendCommands(client, 30));

    expect(answers.filter((a) => a.body['success'] === true)).toHaveLength(10);
    expect(answered).toHaveLength(10);
    // Each process answers a few refusals a second per user and drops the rest unanswered.
    const refused = answers.filter((a) => a.body['success'] === false);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(2 * REFUSAL_ANSWERS.burst);
    expect(String(refused[0]?.body['error'])).toMatch(/too (fast|many)/i);
  });
});
