import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorText } from '@tessera/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';
import { inbox, mqttClients, subackCodes } from '../testing/mqtt-clients.js';
import { createEmbeddedBroker, type EmbeddedBroker } from './embedded.js';
import type { BrokerLimits } from './limits.js';
import { generateServiceCredentials } from './service-principal.js';

/** The embedded broker with small limits, so each limit is reached with a handful of clients. */
const limits: BrokerLimits = {
  publishPerSecond: 0.001,
  publishBurst: 3,
  connectionsPerUser: 2,
  unauthenticatedPerAddress: 3,
  connectTimeoutMs: 500,
};

let store: TestStore;
let broker: EmbeddedBroker;
let server: http.Server;
let port: number;
let url: string;
const service = generateServiceCredentials();
const clients = mqttClients();
const sockets: WebSocket[] = [];

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  broker = await createEmbeddedBroker({ auth: store.auth, service, log: silentLogger, limits });
  server = http.createServer((_req, res) => res.writeHead(404).end());
  broker.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
  url = `ws://127.0.0.1:${port}/mqtt`;
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await clients.endAll();
});

afterAll(async () => {
  await broker.close();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const asUser = (name: string, clientId?: string) =>
  clients.connect(url, name, passwordOf(name), clientId ? { clientId } : {});
const asService = (clientId: string) =>
  clients.connect(url, service.username, service.password, { clientId });
const closed = (client: { once(event: 'close', fn: () => void): unknown }) =>
  new Promise<void>((resolve) => client.once('close', () => resolve()));

describe('[#12 defect 1] client ids', () => {
  it("refuses a connection that would take over another user's client id", async () => {
    const bob = await asUser('bob', 'shared-id');
    const bobClosed = closed(bob);
    let bobGone = false;
    void bobClosed.then(() => (bobGone = true));
    await expect(asUser('alice', 'shared-id')).rejects.toThrow(/Identifier rejected/);
    // A round trip on bob's connection, answered after the broker handled alice's CONNECT.
    await subackCodes(bob, ['query/list-tag/user/bob']);
    expect(bobGone).toBe(false);
    expect(bob.connected).toBe(true);
  });

  it("refuses a user taking the service principal's client id", async () => {
    const svc = await asService('tessera-service-fixed');
    await expect(asUser('alice', 'tessera-service-fixed')).rejects.toThrow(/Identifier rejected/);
    await subackCodes(svc, ['command/+/user/+']);
    expect(svc.connected).toBe(true);
  });

  it('lets a user take over their own client id (a reconnecting tab)', async () => {
    const first = await asUser('alice', 'alice-tab');
    const firstClosed = closed(first);
    const second = await asUser('alice', 'alice-tab');
    await firstClosed;
    expect(second.connected).toBe(true);
    // The id is alice's again: bob still cannot have it.
    await expect(asUser('bob', 'alice-tab')).rejects.toThrow(/Identifier rejected/);
  });

  it('frees a client id when its connection ends', async () => {
    const bob = await asUser('bob', 'bob-once');
    await bob.endAsync();
    // The broker frees the id when it sees the connection close, which it may not have yet.
    await expect
      .poll(() =>
        asUser('alice', 'bob-once').then(
          (alice) => alice.connected,
          () => false,
        ),
      )
      .toBe(true);
  });
});

describe('[#12 defect 11] connections per user', () => {
  it('refuses a connection over the cap, counts a takeover once, and frees a slot on close', async () => {
    const one = await asUser('alice', 'a1');
    await asUser('alice', 'a2');
    await expect(asUser('alice', 'a3')).rejects.toThrow(/Server unavailable/);
    // Other users are not affected, and a reconnecting tab still gets in at the cap.
    expect((await asUser('bob')).connected).toBe(true);
    const oneClosed = closed(one);
    await asUser('alice', 'a1');
    await oneClosed;
    await expect(asUser('alice', 'a3')).rejects.toThrow(/Server unavailable/);
  });
});

describe('[#12 defect 11] connections not logged in', () => {
  /** A WebSocket that never sends CONNECT, from a loopback address of its own. */
  function silentSocket(localAddress: string): Promise<WebSocket> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/mqtt`, 'mqtt', { localAddress });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`refused with ${res.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  it('caps them per address and closes them when CONNECT does not come in time', async () => {
    const held = await Promise.all([1, 2, 3].map(() => silentSocket('127.0.0.2')));
    await expect(silentSocket('127.0.0.2')).rejects.toThrow(/refused with 503/);
    // Another address is not affected, nor a user logging in.
    expect((await silentSocket('127.0.0.3')).readyState).toBe(WebSocket.OPEN);
    expect((await asUser('bob')).connected).toBe(true);
    // The deadline closes the silent ones, which frees the address.
    await Promise.all(
      held.map((socket) => new Promise((resolve) => socket.once('close', resolve))),
    );
    expect((await silentSocket('127.0.0.2')).readyState).toBe(WebSocket.OPEN);
  });
});

describe('one publish budget per user (issue 22, part 4)', () => {
  const listTag = (transactionid: string) =>
    JSON.stringify({ transactionid, user: 'alice', page: 1, size: 10 });
  const refusal = (transactionid: string) => ({
    transactionid,
    user: 'alice',
    success: false,
    error: errorText('COMMANDS_TOO_FAST'),
  });

  it("answers a command over its user's budget with a failure, delivers it to nobody, and counts the user's connections together (issue 22, part 4)", async () => {
    const svc = await asService('svc-rate');
    await svc.subscribeAsync('command/+/user/+');
    const serviceSaw = inbox(svc);
    const alice = await asUser('alice');
    await alice.subscribeAsync([
      'query/list-tag/user/alice',
      'query/status-generate-image/user/alice',
    ]);
    const aliceSaw = inbox(alice);
    for (let i = 0; i < 3; i++)
      await alice.publishAsync('command/list-tag/user/alice', listTag(`t${i}`));
    await alice.publishAsync(
      'command/generate-image/user/alice',
      JSON.stringify({ id: 'hd-1', user: 'alice', image: 'tile.png' }),
    );
    // Another connection of the same user draws on the same, spent, budget.
    const other = await asUser('alice');
    await other.publishAsync('command/list-tag/user/alice', listTag('other'));
    await aliceSaw.arrived(2);
    // Markers from the service, which has no budget, fence off any later delivery.
    await serviceSaw.fence(svc, 'command/list-tag/user/alice');
    await aliceSaw.fence(svc, 'query/list-tag/user/alice');
    expect(serviceSaw.received.map((m) => JSON.parse(m.payload).transactionid)).toEqual([
      't0',
      't1',
      't2',
    ]);
    expect(aliceSaw.received.map((m) => [m.topic, JSON.parse(m.payload)])).toEqual([
      [
        'query/status-generate-image/user/alice',
        {
          id: 'hd-1',
          image: 'tile.png',
          status: 'error',
          percent: 0,
          error: errorText('COMMANDS_TOO_FAST'),
        },
      ],
      ['query/list-tag/user/alice', refusal('other')],
    ]);
    // A refusal now and then is no flood: both connections stay.
    expect(alice.connected).toBe(true);
    expect(other.connected).toBe(true);
  });

  it("disconnects a connection that keeps going over its user's budget (issue 22, part 4)", async () => {
    const svc = await asService('svc-flood');
    await svc.subscribeAsync('command/+/user/+');
    const serviceSaw = inbox(svc);
    const bob = await asUser('bob');
    const gone = closed(bob);
    const command = (i: number) =>
      JSON.stringify({ transactionid: `f${i}`, user: 'bob', page: 1, size: 10 });
    // 3 pass; the connection may be refused a tenth of the burst (one) before it is closed.
    for (let i = 0; i < 3 + 5; i++) bob.publish('command/list-tag/user/bob', command(i));
    await gone;
    await serviceSaw.fence(svc, 'command/list-tag/user/bob');
    expect(serviceSaw.received.length).toBe(3);
  });
});
