// Finding LD images (issue 13, feature 8): list-low-definition with a search, over 10,000 images
// of one user (and as many of another beside them), against the spec's plain first page measured
// in the same run. Run: node --import tsx ld-search.ts; LD_SEARCH_IMAGES sets the gallery size
// (50,000 by default: issue 28's goal is the first page at 50,000).
import { IMAGE_PAGE_SIZE, type LdSearchInput } from '@tessera/contract';
import { sql } from 'kysely';
import { BROKER_PATH } from '../server/src/broker/embedded.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, UNLIMITED_PUBLISHING } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { seedLdImages } from './ld-seed.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { median, ms, ratio, verdict } from './stats.js';

const USER = 'bench-find';
const NEIGHBOUR = 'bench-other';
const IMAGES = Number(process.env.LD_SEARCH_IMAGES ?? 50_000);
/** Every STAR_EVERY-th image is starred: 1,000 of 50,000. */
const STAR_EVERY = 50;
const RUNS = 21;
/** A first page of results should come about as fast as the plain first page. */
const GOAL_MS = 50;

const CASES: [string, LdSearchInput][] = [
  ['search {} (newest first, everything)', {}],
  ['prompt "marble" (1 in 6 match)', { text: 'marble' }],
  ['prompt "zebra" (none match: every row read)', { text: 'zebra' }],
  ['seed 10 (1 in 3 match)', { seed: '10' }],
  ['one day (2025-01-02)', { from: '2025-01-02T00:00:00Z', to: '2025-01-03T00:00:00Z' }],
  [`starred (${Math.floor(IMAGES / STAR_EVERY)})`, { starred: true }],
  ['oldest first', { sort: 'oldest' }],
  ['by name', { sort: 'name' }],
  ['prompt "wooden" + starred + by name', { text: 'wooden', starred: true, sort: 'name' }],
];

async function firstPage(client: BenchClient, search?: LdSearchInput): Promise<number> {
  const start = performance.now();
  const body = await client.request('list-low-definition', {
    page: 1,
    size: IMAGE_PAGE_SIZE,
    filters: { tags: [] },
    ...(search && { search }),
  });
  const took = performance.now() - start;
  if (body.success !== true) throw new Error(JSON.stringify(body).slice(0, 300));
  return took;
}

/** Every page of the results, as the dashboard loads them; the time and how many were found. */
async function allPages(
  client: BenchClient,
  search: LdSearchInput,
): Promise<{ ms: number; found: number }> {
  const start = performance.now();
  let found = 0;
  for (let page = 1; ; page++) {
    const body = await client.request('list-low-definition', {
      page,
      size: IMAGE_PAGE_SIZE,
      filters: { tags: [] },
      search,
    });
    const images = body.images as unknown[];
    found += images.length;
    if (images.length < IMAGE_PAGE_SIZE) break;
  }
  return { ms: performance.now() - start, found };
}

async function main(): Promise<void> {
  console.log(machineLine());
  const server = await startTestServer([USER, NEIGHBOUR], 'embedded', {}, UNLIMITED_PUBLISHING);
  let client: BenchClient | undefined;
  try {
    const seeding = performance.now();
    const { ownerId } = await seedLdImages(server, USER, IMAGES);
    await seedLdImages(server, NEIGHBOUR, IMAGES);
    await server.db
      .updateTable('images')
      .set({ starred: 1 })
      .where('owner_id', '=', ownerId)
      .where((eb) => eb(eb('id', '%', STAR_EVERY), '=', 0))
      .execute();
    console.log(
      `LD search: ${IMAGES.toLocaleString('en')} LD images of the user searched and as many of ` +
        `another, seeded in ${ms(performance.now() - seeding)}; first page of ${IMAGE_PAGE_SIZE}, ` +
        `median of ${RUNS} runs, and every page of the results`,
    );
    client = await BenchClient.connect(
      `ws://127.0.0.1:${server.server.port}${BROKER_PATH}`,
      USER,
      passwordOf(USER),
    );

    // Warm-up.
    for (const [, search] of CASES) await firstPage(client, search);
    await firstPage(client);

    // The server remembers a listing's total and page ends until the user's images change
    // (store/image-pages.ts): a first page asked again is served from that. "Cold" is the first
    // page after a change (a no-op update the triggers count), as after each generation.
    const change = sql`update images set bytes = bytes where owner_id = ${ownerId} and id = (select max(id) from images where owner_id = ${ownerId})`;
    const cold = async (search?: LdSearchInput) => {
      await change.execute(server.db);
      return firstPage(client as BenchClient, search);
    };
    // Interleaved, so a slow moment of the machine costs every case alike.
    const baseline: number[] = [];
    const samples = CASES.map(() => [] as number[]);
    const colds = CASES.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) {
      baseline.push(await firstPage(client));
      for (const [i, [, search]] of CASES.entries()) {
        samples[i]?.push(await firstPage(client, search));
        colds[i]?.push(await cold(search));
      }
    }
    const base = median(baseline);
    const line = (label: string, value: number, rest: string) =>
      console.log(`${label.padEnd(48)}: ${ms(value).padStart(9)} | ${rest}`);
    line('baseline: spec list-low-definition, page 1', base, 'ratio 1.00×');
    let slowest = 0;
    for (const [i, [label, search]] of CASES.entries()) {
      const value = median(samples[i] ?? []);
      const coldValue = median(colds[i] ?? []);
      slowest = Math.max(slowest, value, coldValue);
      const all = await allPages(client, search);
      const pages = Math.floor(all.found / IMAGE_PAGE_SIZE) + 1;
      line(
        label,
        value,
        `ratio ${ratio(value / base)} | cold ${ms(coldValue)}: goal < ${GOAL_MS} ms ` +
          `${verdict(Math.max(value, coldValue) < GOAL_MS)} | ` +
          `all ${all.found} found, ${pages} page${pages === 1 ? '' : 's'}: ${ms(all.ms)}`,
      );
    }
    printHeadline({
      figure: `search's first page at ${IMAGES.toLocaleString('en')}, slowest case (cold or not)`,
      value: ms(slowest),
      goal: `< ${GOAL_MS} ms`,
      met: slowest < GOAL_MS,
    });
  } finally {
    await client?.close();
    await server.stop();
  }
}

await main();
