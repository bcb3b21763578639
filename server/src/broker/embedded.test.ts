import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';
import { inbox, mqttClients, subackCodes } from '../testing/mqtt-clients.js';
import { createEmbeddedBroker, type EmbeddedBroker } from './embedded.js';
import { generateServiceCredentials } from './service-principal.js';

let store: TestStore;
let broker: EmbeddedBroker;
let server: http.Server;
let url: string;
const service = generateServiceCredentials();
const clients = mqttClients();

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  broker = await createEmbeddedBroker({ auth: store.auth, service, log: silentLogger });
  server = http.createServer((_req, res) => res.writeHead(404).end());
  broker.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/mqtt`;
});

afterEach(() => clients.endAll());

afterAll(async () => {
  await broker.close();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const connect = (username: string, password: string) => clients.connect(url, username, password);
const asUser = (name: string) => connect(name, passwordOf(name));
const asService = () => connect(service.username, service.password);

describe('embedded broker over WebSocket', () => {
  it('accepts a user with the right password', async () => {
    const alice = await asUser('alice');
    expect(alice.connected).toBe(true);
  });

  it('refuses a wrong password and an unknown user', async () => {
    await expect(connect('alice', 'wrong')).rejects.toThrow(/Bad username or password/);
    await expect(connect('mallory', 'x')).rejects.toThrow(/Bad username or password/);
    await expect(connect(service.username, 'guess')).rejects.toThrow(/Bad username or password/);
  });

  it("[A2] grants a user their own query topics and refuses another user's", async () => {
    const alice = await asUser('alice');
    const granted = await subackCodes(alice, [
      'query/list-tag/user/alice',
      'query/list-tag/user/bob',
      'query/#',
    ]);
    expect(granted).toEqual([0, 128, 128]);

    const seen = inbox(alice);
    const svc = await asService();
    await svc.publishAsync('query/list-tag/user/bob', 'for bob');
    await svc.publishAsync('query/list-tag/user/alice', 'for alice');
    await seen.fence(svc, 'query/list-tag/user/alice');
    expect(seen.received).toEqual([{ topic: 'query/list-tag/user/alice', payload: 'for alice' }]);
  });

  it("[A2] delivers a user's own commands to the service and never another user's", async () => {
    const svc = await asService();
    await svc.subscribeAsync('command/+/user/+');
    const seen = inbox(svc);

    const alice = await asUser('alice');
    const own = seen.next();
    await alice.publishAsync('command/list-tag/user/alice', '{"ok":1}');
    expect(await own).toEqual({ topic: 'command/list-tag/user/alice', payload: '{"ok":1}' });

    const closed = new Promise<void>((resolve) => alice.once('close', () => resolve()));
    alice.publish('command/delete-tag/user/bob', '{"evil":1}');
    await closed; // MQTT 3.1.1: a refused PUBLISH closes the connection
    await seen.fence(await asUser('bob'), 'command/list-tag/user/bob');
    expect(seen.received.map((m) => m.topic)).toEqual(['command/list-tag/user/alice']);
  });

  it('refuses a user publishing on a query topic, so responses cannot be forged', async () => {
    const bob = await asUser('bob');
    await bob.subscribeAsync('query/list-tag/user/bob');
    const bobSees = inbox(bob);
    const alice = await asUser('alice');
    const closed = new Promise<void>((resolve) => alice.once('close', () => resolve()));
    alice.publish('query/list-tag/user/bob', 'forged');
    await closed; // the refused PUBLISH has been handled
    await bobSees.fence(await asService(), 'query/list-tag/user/bob');
    expect(bobSees.received).toEqual([]);
  });

  it('lets the service principal subscribe to every command and answer any user', async () => {
    const svc = await asService();
    expect(await subackCodes(svc, ['command/+/user/+'])).toEqual([0]);
    const bob = await asUser('bob');
    await bob.subscribeAsync('query/status-tag/user/bob');
    const reply = inbox(bob).next();
    await svc.publishAsync('query/status-tag/user/bob', '{"success":true}');
    expect(await reply).toEqual({
      topic: 'query/status-tag/user/bob',
      payload: '{"success":true}',
    });
  });

  it('closes upgrades on any other path', async () => {
    const other = url.replace('/mqtt', '/other');
    const client = clients.track(mqtt.connect(other, { reconnectPeriod: 0, connectTimeout: 2000 }));
    await expect(
      new Promise((_resolve, reject) => {
        client.once('error', reject);
        client.once('close', () => reject(new Error('closed')));
      }),
    ).rejects.toThrow();
    expect(client.connected).toBe(false);
  });
});
