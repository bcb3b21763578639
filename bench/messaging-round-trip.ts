// Round trip of list-tag through the real server at 1 and 50 concurrent clients, against a raw
// broker echo measured in the same run (issue 3). Run: node --import tsx messaging-round-trip.ts
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { COMMAND_SUBSCRIPTION, TAG_PAGE_SIZE } from '@tessera/contract';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { BROKER_PATH } from '../server/src/broker/embedded.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, UNLIMITED_PUBLISHING } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { machineLine } from './machine.js';
import { ms, percentile, ratio, verdict, type Budget } from './stats.js';

const USERS = Array.from({ length: 50 }, (_, i) => `bench-${i}`);
const CONCURRENCIES = [1, 50];
const TAGS_PER_USER = TAG_PAGE_SIZE;
/** The tags panel's request: the first page of 10. */
const LIST_TAG = { page: 1, size: TAG_PAGE_SIZE };
const WARM_UP: Budget = { samples: 1000, timeLimitMs: 5_000 };
/** Echo and list-tag take turns, so a noisy neighbour hurts both alike. */
const ROUNDS = 8;
const PER_ROUND: Budget = { samples: 1000, timeLimitMs: 3_000 };
const MIN_SAMPLES = 2000;
const GOAL_RATIO = 2;
/** The server counts 30 logins per address and minute; 25 clients per loopback address. */
const CLIENTS_PER_ADDRESS = 25;

interface EchoBroker {
  url: string;
  /** Bytes each user's echo answer is padded to: the size of the real list-tag answer. */
  answerBytes: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A plain Aedes broker of the same version on the same WebSocket transport as the embedded one
 * (server/src/broker/embedded.ts), without authentication, and a client that answers each
 * command on the user's list-tag query topic: the same two hops as the real path, minus the
 * service's work.
 */
async function startEchoBroker(): Promise<EchoBroker> {
  const aedes = await Aedes.createBroker();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    handleProtocols: (protocols) =>
      protocols.has('mqtt') ? 'mqtt' : protocols.has('mqttv3.1') ? 'mqttv3.1' : false,
  });
  const http = createServer();
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== BROKER_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => aedes.handle(createWebSocketStream(ws), req));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}${BROKER_PATH}`;

  const answerBytes = new Map<string, number>();
  const echo = await mqtt.connectAsync(url, { clean: true, reconnectPeriod: 0 });
  echo.on('message', (topic, payload) => {
    const user = topic.split('/')[3] ?? '';
    echo.publish(`query/list-tag/user/${user}`, padded(payload, answerBytes.get(user) ?? 0), {
      qos: 0,
      retain: false,
    });
  });
  await echo.subscribeAsync(COMMAND_SUBSCRIPTION, { qos: 0 });

  return {
    url,
    answerBytes,
    async close() {
      await echo.endAsync(true);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The command's JSON with a filler field, so the echo is as long as the real answer. */
function padded(command: Buffer, bytes: number): Buffer {
  const filler = bytes - command.length - ',"pad":""'.length;
  if (filler < 0) return command;
  return Buffer.concat([
    command.subarray(0, command.length - 1),
    Buffer.from(`,"pad":"${'x'.repeat(filler)}"}`),
  ]);
}

async function connectAll(url: string): Promise<BenchClient[]> {
  return Promise.all(
    USERS.map((user, i) =>
      BenchClient.connect(
        url,
        user,
        passwordOf(user),
        `127.0.0.${1 + Math.floor(i / CLIENTS_PER_ADDRESS)}`,
      ),
    ),
  );
}

async function listTag(client: BenchClient): Promise<void> {
  const body = await client.request('list-tag', LIST_TAG);
  if (!('pad' in body) && body.success !== true)
    throw new Error(`list-tag failed: ${JSON.stringify(body)}`);
}

/** Each client sends its requests one after another; all clients in parallel. */
async function load(clients: BenchClient[], budget: Budget): Promise<number[]> {
  const samples: number[] = [];
  const deadline = performance.now() + budget.timeLimitMs;
  await Promise.all(
    clients.map(async (client) => {
      while (samples.length < budget.samples && performance.now() < deadline) {
        const start = performance.now();
        await listTag(client);
        samples.push(performance.now() - start);
      }
    }),
  );
  return samples;
}

function describe(samples: number[]): { p50: number; p99: number; text: string } {
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  return { p50, p99, text: `p50 ${ms(p50).padStart(8)}, p99 ${ms(p99).padStart(8)}` };
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'messaging round trip: list-tag (page of 10 tags) through the real server (embedded broker), ' +
      'against a raw Aedes echo over WebSocket; clients, broker and service share one Node process',
  );
  const server = await startTestServer(USERS, 'embedded', {}, UNLIMITED_PUBLISHING);
  const echo = await startEchoBroker();
  const opened: BenchClient[] = [];
  try {
    const real = await connectAll(`ws://127.0.0.1:${server.server.port}${BROKER_PATH}`);
    opened.push(...real);
    await Promise.all(
      real.map(async (client) => {
        for (let t = 0; t < TAGS_PER_USER; t++) {
          const body = await client.request('create-tag', {
            id: `tag-${t}-${client.username}`,
            name: `Tag ${t}`,
            color: `#${(0x123456 + t * 0x10101).toString(16)}`,
          });
          if (body.success !== true) throw new Error(`create-tag failed: ${JSON.stringify(body)}`);
        }
        const body = await client.request('list-tag', LIST_TAG);
        if (!Array.isArray(body.tags) || body.tags.length !== TAGS_PER_USER)
          throw new Error(`unexpected list-tag answer: ${JSON.stringify(body)}`);
        echo.answerBytes.set(client.username, client.lastAnswerBytes);
      }),
    );
    const echoed = await connectAll(echo.url);
    opened.push(...echoed);
    const sizes = [...echo.answerBytes.values()];
    console.log(
      `payloads: command ~${JSON.stringify({ transactionid: randomUUID(), user: USERS[0], ...LIST_TAG }).length} B, ` +
        `answer ${Math.min(...sizes)}–${Math.max(...sizes)} B (the echo is padded to the same size)`,
    );

    for (const n of CONCURRENCIES) {
      const echoClients = echoed.slice(0, n);
      const realClients = real.slice(0, n);
      await load(echoClients, WARM_UP);
      await load(realClients, WARM_UP);
      const echoSamples: number[] = [];
      const realSamples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        echoSamples.push(...(await load(echoClients, PER_ROUND)));
        realSamples.push(...(await load(realClients, PER_ROUND)));
      }
      const e = describe(echoSamples);
      const r = describe(realSamples);
      const x = r.p50 / e.p50;
      const label = `${n} client${n === 1 ? '' : 's'}`.padEnd(10);
      const few = Math.min(echoSamples.length, realSamples.length) < MIN_SAMPLES;
      console.log(
        `list-tag round trip, ${label}: ${r.text} | raw echo ${e.text} | ` +
          `ratio ${ratio(x)} (goal ≤ ${GOAL_RATIO}×: ${verdict(x <= GOAL_RATIO)}) | ` +
          `samples: list-tag ${realSamples.length}, echo ${echoSamples.length}${few ? ' (time limit hit: fewer than wanted)' : ''}`,
      );
    }
  } finally {
    await Promise.all(opened.map((client) => client.close()));
    await echo.close();
    await server.stop();
  }
}

await main();
