// One user floods their command topic; another user's list-tag round trips are timed before and
// during the flood, with the default limits and with no rate limit, in the same run (issue 12).
// Run: node --import tsx flood.ts
import { TAG_PAGE_SIZE } from '@tessera/contract';
import { once } from 'node:events';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from '../server/src/broker/limits.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, UNLIMITED_PUBLISHING } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { machineLine } from './machine.js';
import { ms, percentile, ratio, sleep } from './stats.js';

const FLOOD_CONNECTIONS = 4;
const MEASURE_MS = 4_000;
const LIST_TAG = { page: 1, size: TAG_PAGE_SIZE };
/** The victim asks at a person's pace (well under the rate limit), one request at a time. */
const VICTIM_INTERVAL_MS = 50;

async function roundTrips(victim: BenchClient, durationMs: number): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const start = performance.now();
    const body = await victim.request('list-tag', LIST_TAG);
    if (body.success !== true) throw new Error(`victim refused: ${JSON.stringify(body)}`);
    const took = performance.now() - start;
    samples.push(took);
    await sleep(Math.max(0, VICTIM_INTERVAL_MS - took));
  }
  return samples;
}

/** Starts the flooding user's connections in a process; stop() ends them and says what they did. */
async function flood(
  url: string,
): Promise<{ stop: () => Promise<{ sent: number; stillConnected: number }> }> {
  const orders = {
    url,
    username: 'flooder',
    password: passwordOf('flooder'),
    connections: FLOOD_CONNECTIONS,
    payload: JSON.stringify({ transactionid: 'flood', user: 'flooder', ...LIST_TAG }),
  };
  const worker = fork(
    fileURLToPath(new URL('./flood-sender.ts', import.meta.url)),
    [JSON.stringify(orders)],
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  const messages = (async function* () {
    for (;;) yield (await once(worker, 'message'))[0] as Record<string, number>;
  })();
  await messages.next(); // ready
  return {
    stop: async () => {
      worker.send('stop');
      const report = (await messages.next()).value as { sent: number; stillConnected: number };
      await once(worker, 'exit');
      return report;
    },
  };
}

async function run(label: string, limits: Partial<BrokerLimits>): Promise<number> {
  const server = await startTestServer(['victim', 'flooder'], 'embedded', {}, limits);
  try {
    const victim = await BenchClient.connect(server.brokerUrl, 'victim', passwordOf('victim'));
    await roundTrips(victim, 500); // warm-up
    const quiet = await roundTrips(victim, MEASURE_MS);
    const flooding = await flood(server.brokerUrl);
    const loud = await roundTrips(victim, MEASURE_MS);
    const { sent, stillConnected } = await flooding.stop();
    const p99Ratio = percentile(loud, 99) / percentile(quiet, 99);
    console.log(
      `${label}: victim list-tag p50 ${ms(percentile(quiet, 50))} → ${ms(percentile(loud, 50))}, ` +
        `p99 ${ms(percentile(quiet, 99))} → ${ms(percentile(loud, 99))} (${ratio(p99Ratio)}) ` +
        `while ${FLOOD_CONNECTIONS} connections of another user wrote ${sent.toLocaleString('en')} commands ` +
        `(${stillConnected} still connected at the end)`,
    );
    await victim.close();
    return p99Ratio;
  } finally {
    await server.stop();
  }
}

console.log(machineLine());
const limited = await run(
  `default limits (${DEFAULT_BROKER_LIMITS.publishPerSecond}/s, burst ${DEFAULT_BROKER_LIMITS.publishBurst} per connection)`,
  {},
);
const unlimited = await run('no rate limit', UNLIMITED_PUBLISHING);
console.log(
  `flood effect on another user's p99: ${ratio(limited)} with the limits, ${ratio(unlimited)} without`,
);
process.exit(0);
