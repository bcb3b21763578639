// Round trip of list-tag through the real server at 1 and 50 concurrent clients, against a raw
// broker echo measured in the same run (issues 3 and 28), on the embedded broker and on
// Mosquitto. Run: node --import tsx messaging-round-trip.ts [embedded|mosquitto]
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
import { mosquittoAvailable, startMosquitto } from '../server/src/testing/mosquitto.js';
import {
  SERVICE_USERNAME,
  startTestServer,
  UNLIMITED_PUBLISHING,
  type BrokerKind,
} from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, percentile, ratio, verdict, type Budget } from './stats.js';

const mean = (samples: number[]) => samples.reduce((a, b) => a + b, 0) / samples.length;

const USERS = Array.from({ length: 50 }, (_, i) => `bench-${i}`);
/** Clients at once, and the goal for each: the list-tag round trip within this many raw echoes. */
const GOALS = new Map([
  [1, 2],
  [50, 1.5],
]);
const TAGS_PER_USER = TAG_PAGE_SIZE;
/** The tags panel's request: the first page of 10. */
const LIST_TAG = { page: 1, size: TAG_PAGE_SIZE };
const WARM_UP: Budget = { samples: 1000, timeLimitMs: 5_000 };
/** Echo and list-tag take turns, so a noisy neighbour hurts both alike. */
const ROUNDS = 8;
const PER_ROUND: Budget = { samples: 1000, timeLimitMs: 3_000 };
const MIN_SAMPLES = 2000;
/** The server counts 30 logins per address and minute; 25 clients per loopback address. */
const CLIENTS_PER_ADDRESS = 25;

interface EchoBroker {
  url: string;
  /** Bytes each user's echo answer is padded to: the size of the real list-tag answer. */
  answerBytes: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The echo: a client that answers each command on the user's list-tag query topic, padded to
 * the real answer's size. The same two hops as the real path, minus the service's work.
 */
async function startEcho(
  url: string,
  options: mqtt.IClientOptions,
): Promise<{ answerBytes: Map<string, number>; end(): Promise<void> }> {
  const answerBytes = new Map<string, number>();
  const echo = await mqtt.connectAsync(url, { ...options, clean: true, reconnectPeriod: 0 });
  echo.on('message', (topic, payload) => {
    const user = topic.split('/')[3] ?? '';
    echo.publish(`query/list-tag/user/${user}`, padded(payload, answerBytes.get(user) ?? 0), {
      qos: 0,
      retain: false,
    });
  });
  await echo.subscribeAsync(COMMAND_SUBSCRIPTION, { qos: 0 });
  return { answerBytes, end: () => echo.endAsync(true) };
}

/**
 * A plain Aedes broker of the same version on the same WebSocket transport as the embedded one
 * (server/src/broker/embedded.ts), without authentication.
 */
async function startAedesEcho(): Promise<EchoBroker> {
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
  const echo = await startEcho(url, {});
  return {
    url,
    answerBytes: echo.answerBytes,
    async close() {
      await echo.end();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * A second Mosquitto as deployed (deploy/mosquitto: dynamic security, the same logins and ACL),
 * the echo logged in as the service is, over plain MQTT; the users over WebSocket.
 */
async function startMosquittoEcho(): Promise<EchoBroker> {
  const service = { username: SERVICE_USERNAME, password: passwordOf(SERVICE_USERNAME) };
  const broker = await startMosquitto(
    service,
    USERS.map((username) => ({ username, password: passwordOf(username) })),
  );
  const echo = await startEcho(broker.tcpUrl, service);
  return {
    url: broker.wsUrl,
    answerBytes: echo.answerBytes,
    async close() {
      await echo.end();
      await broker.stop();
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

/** Where a round of `load` went: the samples, and this process's CPU and wall time for them. */
interface Round {
  samples: number[];
  cpuUs: number;
  wallUs: number;
}

/** Each client sends its requests one after another; all clients in parallel. */
async function load(clients: BenchClient[], budget: Budget): Promise<Round> {
  const samples: number[] = [];
  const deadline = performance.now() + budget.timeLimitMs;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (samples.length < budget.samples && performance.now() < deadline) {
        const start = performance.now();
        await listTag(client);
        samples.push(performance.now() - start);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return {
    samples,
    cpuUs: cpu.user + cpu.system,
    wallUs: (performance.now() - wallBefore) * 1000,
  };
}

/** Totals of rounds: samples, and this process's CPU and wall time per round trip. */
function perRoundTrip(rounds: Round[]): { samples: number[]; cpuUs: number; wallUs: number } {
  const samples = rounds.flatMap((round) => round.samples);
  const sum = (key: 'cpuUs' | 'wallUs') => rounds.reduce((total, round) => total + round[key], 0);
  return { samples, cpuUs: sum('cpuUs') / samples.length, wallUs: sum('wallUs') / samples.length };
}

function describe(samples: number[]): { p50: number; p99: number; text: string } {
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  return { p50, p99, text: `p50 ${ms(p50).padStart(8)}, p99 ${ms(p99).padStart(8)}` };
}

async function measure(broker: BrokerKind): Promise<void> {
  console.log(
    `messaging round trip on the ${broker} broker: list-tag (page of 10 tags) through the real ` +
      `server, against a raw echo through a broker of the same kind; clients, ` +
      `${broker === 'embedded' ? 'broker' : 'echo client'} and service share one Node process`,
  );
  const server = await startTestServer(USERS, broker, {}, UNLIMITED_PUBLISHING);
  const opened: BenchClient[] = [];
  const echo = await (broker === 'embedded' ? startAedesEcho() : startMosquittoEcho());
  try {
    const real = await connectAll(server.brokerUrl);
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

    for (const [n, goal] of GOALS) {
      const echoClients = echoed.slice(0, n);
      const realClients = real.slice(0, n);
      await load(echoClients, WARM_UP);
      await load(realClients, WARM_UP);
      const echoRounds: Round[] = [];
      const realRounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        echoRounds.push(await load(echoClients, PER_ROUND));
        realRounds.push(await load(realClients, PER_ROUND));
      }
      const echoTotals = perRoundTrip(echoRounds);
      const realTotals = perRoundTrip(realRounds);
      const echoSamples = echoTotals.samples;
      const realSamples = realTotals.samples;
      const e = describe(echoSamples);
      const r = describe(realSamples);
      const x = r.p50 / e.p50;
      const label = `${n} client${n === 1 ? '' : 's'}`.padEnd(10);
      const few = Math.min(echoSamples.length, realSamples.length) < MIN_SAMPLES;
      console.log(
        `list-tag round trip, ${label}: ${r.text} | raw echo ${e.text} | ` +
          `ratio ${ratio(x)} (goal ≤ ${goal}×: ${verdict(x <= goal)}) | ` +
          `samples: list-tag ${realSamples.length}, echo ${echoSamples.length}${few ? ' (time limit hit: fewer than wanted)' : ''}`,
      );
      // Where the difference goes: this process's CPU (clients, echo client or service) per
      // round trip, and the wall time per round trip (with n clients at once, n / throughput).
      const us = (value: number) => `${value.toFixed(1)} µs`;
      console.log(
        `  per round trip, ${label}: this process's CPU ${us(realTotals.cpuUs)} | echo ${us(echoTotals.cpuUs)} ` +
          `(${ratio(realTotals.cpuUs / echoTotals.cpuUs)}); wall ${us(realTotals.wallUs)} | echo ${us(echoTotals.wallUs)} ` +
          `(${ratio(realTotals.wallUs / echoTotals.wallUs)}); mean latency ${ms(mean(realSamples))} | echo ${ms(mean(echoSamples))}`,
      );
      printHeadline({
        figure: `list-tag round trip / raw echo, ${label.trim()}, ${broker}`,
        value: ratio(x),
        goal: `≤ ${goal}×`,
        met: x <= goal,
      });
    }
  } finally {
    await Promise.all(opened.map((client) => client.close()));
    await echo.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  const asked = process.argv[2] as BrokerKind | undefined;
  const brokers: BrokerKind[] = asked ? [asked] : ['embedded', 'mosquitto'];
  for (const broker of brokers) {
    if (broker === 'mosquitto' && !mosquittoAvailable) {
      console.log('Mosquitto: SKIPPED (not installed)');
      continue;
    }
    await measure(broker);
  }
}

await main();
