// One user floods with every connection they may hold (16, each paced); another user's
// list-low-definition round trips are timed quiet and flooded, alternately, in the same run
// (issue 22, part 4). Two floods: the (each connection at 45 commands a second, under
// what one connection was once allowed), cut off by the server within a second, and the fastest
// that is refused without being cut off, which lasts. Run: node --import tsx flood.ts
import { IMAGE_PAGE_SIZE } from '@tessera/contract';
import { DEFAULT_BROKER_LIMITS } from '../server/src/broker/limits.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startFlood, type Flood } from '../server/src/testing/flood.js';
import { startTestServer } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, percentile, ratio, sleep } from './stats.js';

const CONNECTIONS = DEFAULT_BROKER_LIMITS.connectionsPerUser;
const FAST_RATE = Math.floor(DEFAULT_BROKER_LIMITS.publishPerSecond * 0.9);
/** A connection may be refused a tenth of the user's rate a second before it is closed. */
const STEADY_RATE = Math.floor((DEFAULT_BROKER_LIMITS.publishPerSecond / 10) * 0.8);
const ROUNDS = 5;
const SAMPLES_PER_ROUND = 200;
const VICTIM_PAUSE_MS = 25;
const LIST = { page: 1, size: IMAGE_PAGE_SIZE, filters: { tags: [] } };

const server = await startTestServer(['victim', 'steady', 'fast'], 'embedded');
for (let i = 0; i < 20; i++)
  await server.placeImage('victim', 'ld', `tile-${i}.png`, { prompt: `tile ${i}` });
const victim = await BenchClient.connect(server.brokerUrl, 'victim', passwordOf('victim'));
await victim.request('refresh-low-definition', {});

/** The victim's round trips, one at a time: `count` of them, or until `until` settles. */
async function roundTrips(count: number, until?: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until?.then(() => (done = true));
  const samples: number[] = [];
  while (until ? !done : samples.length < count) {
    const start = performance.now();
    const body = await victim.request('list-low-definition', LIST);
    if (body.success !== true) throw new Error(`victim refused: ${JSON.stringify(body)}`);
    samples.push(performance.now() - start);
    await sleep(VICTIM_PAUSE_MS);
  }
  return samples;
}

function flood(username: string, perConnectionRate: number): Promise<Flood> {
  const small = JSON.stringify({ transactionid: 'flood', user: username, ...LIST });
  const large = JSON.stringify({
    transactionid: 'big',
    user: username,
    ...LIST,
    pad: 'x'.repeat(60_000),
  });
  return startFlood({
    url: server.brokerUrl,
    username,
    password: passwordOf(username),
    connections: CONNECTIONS,
    action: 'list-low-definition',
    payloads: [small, small, small, large],
    perConnectionRate,
  });
}

const line = (label: string, quiet: number[], loud: number[]) =>
  `${label}: victim list-low-definition p50 ${ms(percentile(quiet, 50))} → ${ms(percentile(loud, 50))}, ` +
  `p99 ${ms(percentile(quiet, 99))} → ${ms(percentile(loud, 99))} ` +
  `(${ratio(percentile(loud, 99) / percentile(quiet, 99))})`;

console.log(machineLine());
await roundTrips(50); // warm-up

const steady = await flood('steady', STEADY_RATE);
const quiet: number[] = [];
const loud: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  quiet.push(...(await roundTrips(SAMPLES_PER_ROUND)));
  await steady.go(); // measured once the budget is spent and commands are refused
  loud.push(...(await roundTrips(SAMPLES_PER_ROUND)));
  steady.pause();
}
const held = await steady.stop();
console.log(
  line(
    `${CONNECTIONS} connections at ${STEADY_RATE}/s each, refused but not cut off`,
    quiet,
    loud,
  ) +
    `; ${held.sent.toLocaleString('en')} commands sent, ${held.received.toLocaleString('en')} ` +
    `messages received, ${held.closedByServer} connections closed`,
);
printHeadline({
  figure: `victim's list p99, ${CONNECTIONS} flooding connections / quiet`,
  value: ratio(percentile(loud, 99) / percentile(quiet, 99)),
});

const fast = await flood('fast', FAST_RATE);
await fast.go();
const during = await roundTrips(0, fast.allClosed);
const cut = await fast.stop();
console.log(
  line(`${CONNECTIONS} connections at ${FAST_RATE}/s each until cut off`, quiet, during) +
    ` over ${during.length} requests; all ${cut.closedByServer} connections closed after ` +
    `${cut.seconds.toFixed(1)} s, ${cut.sent.toLocaleString('en')} commands sent, ` +
    `${cut.received.toLocaleString('en')} messages received`,
);
await victim.close();
await server.stop();
process.exit(0);
