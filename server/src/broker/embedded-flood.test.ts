import { IMAGE_PAGE_SIZE, TAG_PAGE_SIZE, type CommandAction } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordOf } from '../testing/fixtures.js';
import { startFlood, type Flood } from '../testing/flood.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { TestClient } from '../testing/test-client.js';
import { DEFAULT_BROKER_LIMITS } from './limits.js';
import { REFUSAL_ANSWERS } from '../limits/user-budget.js';

const FLOOD_CONNECTIONS = DEFAULT_BROKER_LIMITS.connectionsPerUser;
/** Each connection stays under what one connection was allowed before the budget was per user. */
const FAST_RATE = Math.floor(DEFAULT_BROKER_LIMITS.publishPerSecond * 0.9);
/**
 * A connection may be refused a tenth of the user's rate a second and stay: this pace keeps the
 * user over their budget all along, refused but never cut off, so the flood lasts as long as the
 * measurement (a faster one is closed within a second: the second test).
 */
const STEADY_RATE = Math.floor((DEFAULT_BROKER_LIMITS.publishPerSecond / 10) * 0.8);
/** Quiet and flooded rounds alternate, so that the machine's own spells hit both alike. */
const ROUNDS = 3;
const SAMPLES_PER_ROUND = 100;
/** The victim asks at a person's pace, one request at a time. */
const VICTIM_PAUSE_MS = 25;
const LIST = { page: 1, size: IMAGE_PAGE_SIZE, filters: { tags: [] } };

let t: TestServer;
let victim: TestClient;

beforeAll(async () => {
  t = await startTestServer(['victim', 'flooder', 'cutoff', 'reader'], 'embedded');
  for (let i = 0; i < 20; i++)
    await t.placeImage('victim', 'ld', `tile-${i}.png`, { prompt: `tile ${i}` });
  victim = await t.connect('victim');
  const first = await victim.call('refresh-low-definition');
  expect(first).toMatchObject({ success: true });
}, 60_000);

afterAll(() => t?.stop());

/** The victim's round trips, one at a time: `count` of them, or until `until` settles. */
async function roundTrips(count: number, until?: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until?.then(() => (done = true));
  const samples: number[] = [];
  while (until ? !done : samples.length < count) {
    const start = performance.now();
    const { body } = await victim.request('list-low-definition', LIST);
    samples.push(performance.now() - start);
    expect(body).toMatchObject({ success: true });
    await new Promise((resolve) => setTimeout(resolve, VICTIM_PAUSE_MS));
  }
  return samples;
}

/**
 * The most answers a flooding user can get in `seconds`: the commands their budget lets through
 * and the refusals answered (a few a second), each delivered to every one of their connections.
 */
function answeredWithin(seconds: number): number {
  const { publishBurst, publishPerSecond } = DEFAULT_BROKER_LIMITS;
  return (
    publishBurst +
    publishPerSecond * seconds +
    REFUSAL_ANSWERS.burst +
    REFUSAL_ANSWERS.perSecond * seconds
  );
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] as number;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Small list commands, and one in four of 60 KB (under the 64 KiB cap), charged by its bytes. */
function floodPayloads(user: string): string[] {
  const small = JSON.stringify({ transactionid: 'flood', user, ...LIST });
  const large = JSON.stringify({ transactionid: 'big', user, ...LIST, pad: 'x'.repeat(60_000) });
  return [small, small, small, large];
}

describe('one user flooding with every connection they may hold (issue 22, part 4)', () => {
  let flood: Flood | undefined;
  afterAll(async () => {
    await flood?.stop();
  });

  it("answers another user all along while 16 connections of one user flood, running only the flooder's budget (issue 22, part 4)", async () => {
    flood = await startFlood({
      url: t.brokerUrl,
      username: 'flooder',
      password: passwordOf('flooder'),
      connections: FLOOD_CONNECTIONS,
      action: 'list-low-definition',
      payloads: floodPayloads('flooder'),
      perConnectionRate: STEADY_RATE,
    });
    await roundTrips(30); // warm-up
    const quiet: number[] = [];
    const flooded: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(...(await roundTrips(SAMPLES_PER_ROUND)));
      // Measured once the user's budget is spent and their commands are being refused.
      await flood.go();
      flooded.push(...(await roundTrips(SAMPLES_PER_ROUND)));
      flood.pause();
    }
    const report = await flood.stop();
    flood = undefined;
    const [quietP99, floodedP99] = [percentile(quiet, 99), percentile(flooded, 99)];
    console.log(
      `victim list-low-definition p50 ${ms(percentile(quiet, 50))} → ${ms(percentile(flooded, 50))}, ` +
        `p99 ${ms(quietP99)} → ${ms(floodedP99)} while ${FLOOD_CONNECTIONS} connections sent ` +
        `${report.sent} commands`,
    );
    // Latency is the benchmark's to measure (`npm run bench`, bench/flood.ts: the p99 ratio);
    // here, what makes it hold: every victim request was answered (roundTrips checks each), the
    // flood lasted (none of its connections was closed), and the server ran no more of the
    // flooder's commands than the user's budget, refusing the rest with a few answers.
    expect(report.closedByServer).toBe(0);
    expect(report.received).toBeLessThanOrEqual(FLOOD_CONNECTIONS * answeredWithin(report.seconds));
  }, 120_000);

  it("closes every connection that keeps going far over its user's budget, and does not multiply its answers (issue 22, part 4)", async () => {
    flood = await startFlood({
      url: t.brokerUrl,
      username: 'cutoff',
      password: passwordOf('cutoff'),
      connections: FLOOD_CONNECTIONS,
      action: 'list-low-definition',
      payloads: floodPayloads('cutoff'),
      perConnectionRate: FAST_RATE,
    });
    await flood.go();
    // The victim is answered all along, until every flooding connection is closed.
    const during = await roundTrips(0, flood.allClosed);
    const report = await flood.stop();
    flood = undefined;
    console.log(
      `victim slowest while the fast flood lasted: ${ms(Math.max(...during))}, ` +
        `${report.sent} commands sent in ${report.seconds.toFixed(1)} s`,
    );
    expect(report.closedByServer).toBe(FLOOD_CONNECTIONS);
    // Not one answer per command sent.
    expect(report.received).toBeLessThanOrEqual(FLOOD_CONNECTIONS * answeredWithin(report.seconds));
    expect(await victim.call('list-low-definition', LIST)).toMatchObject({ success: true });
  }, 90_000);
});

describe('a user with every tab open (issue 22, part 4)', () => {
  /**
   * What a Dashboard load sends for 1,000 images and 50 tags (web/src/lib/api): a refresh, the
   * tags in pages of 10 until a short one, the LD images in pages of 100, the HD ones.
   */
  const pageLoad: [CommandAction, Record<string, unknown>][] = [
    ['refresh-low-definition', {}],
    ...Array.from({ length: 6 }, (_, i): [CommandAction, Record<string, unknown>] => [
      'list-tag',
      { page: i + 1, size: TAG_PAGE_SIZE },
    ]),
    ...Array.from({ length: 11 }, (_, i): [CommandAction, Record<string, unknown>] => [
      'list-low-definition',
      { ...LIST, page: i + 1 },
    ]),
    ...Array.from({ length: 2 }, (_, i): [CommandAction, Record<string, unknown>] => [
      'list-high-definition',
      { page: i + 1, size: IMAGE_PAGE_SIZE },
    ]),
  ];

  it('answers every command of two tabs reloading at once (issue 22, part 4)', async () => {
    // One after the other: sign-ins at once from one address would be throttled.
    const tabs: TestClient[] = [];
    while (tabs.length < DEFAULT_BROKER_LIMITS.connectionsPerUser)
      tabs.push(await t.connect('reader'));
    const reloading = tabs.slice(0, 2);
    const answers = await Promise.all(
      reloading.flatMap((tab) => pageLoad.map(([action, fields]) => tab.call(action, fields))),
    );
    expect(answers).toHaveLength(2 * pageLoad.length);
    for (const answer of answers) expect(answer).toMatchObject({ success: true });
    await Promise.all(tabs.map((tab) => tab.close()));
  }, 60_000);
});
