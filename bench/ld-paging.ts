// Paging through all LD images of one user in pages of 100, as the browser does after each
// generation, against a plain SQLite read of the same rows in the same run (issues 3 and 28).
// Run: node --import tsx ld-paging.ts; LD_PAGING_IMAGES=10000,50000 (the default) sets the
// gallery sizes, one server each, so that the growth from one size to the next shows.
import path from 'node:path';
import { IMAGE_PAGE_SIZE } from '@tessera/contract';
import { sql } from 'kysely';
import { BROKER_PATH } from '../server/src/broker/embedded.js';
import { SQLite } from '../server/src/store/sqlite-driver.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, UNLIMITED_PUBLISHING } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { seedLdImages, TAGS } from './ld-seed.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { median, ms, ratio, verdict } from './stats.js';

const USER = 'bench-ld';
/** Gallery sizes, each measured on a server of its own. */
const SIZES = (process.env.LD_PAGING_IMAGES ?? '10000,50000').split(',').map(Number);
const RUNS = 11;
const RUNS_TIME_LIMIT_MS = 120_000;
const GOAL_MS = 1000;

interface Row {
  filename: string;
}

/** The baseline: the same columns in the same order, straight from better-sqlite3. */
function sqliteReader(dataDir: string, ownerId: number) {
  const sqlite = new SQLite(path.join(dataDir, 'tessera.sqlite'), { readonly: true });
  const columns =
    'id, owner_id, kind, filename, source_image_id, width, height, bytes, metadata, created_at';
  const order = 'order by created_at desc, id desc';
  const pageQuery = sqlite.prepare<[number, number, number], Row>(
    `select ${columns} from images where owner_id = ? and kind = 'ld' ${order} limit ? offset ?`,
  );
  const allQuery = sqlite.prepare<[number], Row>(
    `select ${columns} from images where owner_id = ? and kind = 'ld' ${order}`,
  );
  return {
    /** Pages of 100 with the same LIMIT/OFFSET query, as many pages as the browser asks for. */
    paged(): { ms: number; filenames: string[] } {
      const filenames: string[] = [];
      const start = performance.now();
      for (let page = 1; ; page++) {
        const rows = pageQuery.all(ownerId, IMAGE_PAGE_SIZE, (page - 1) * IMAGE_PAGE_SIZE);
        for (const row of rows) filenames.push(row.filename);
        if (rows.length < IMAGE_PAGE_SIZE) break;
      }
      return { ms: performance.now() - start, filenames };
    },
    /** All rows in one query, for reference. */
    single(): number {
      const start = performance.now();
      allQuery.all(ownerId);
      return performance.now() - start;
    },
    close: () => sqlite.close(),
  };
}

/** The median time to page through all of `images` over MQTT. */
async function measure(images: number): Promise<number> {
  const server = await startTestServer([USER], 'embedded', {}, UNLIMITED_PUBLISHING);
  let client: BenchClient | undefined;
  let reader: ReturnType<typeof sqliteReader> | undefined;
  try {
    const seeding = performance.now();
    const { ownerId } = await seedLdImages(server, USER, images);
    console.log(
      `LD paging: ${images.toLocaleString('en')} LD images of one user (16 metadata fields, ` +
        `${TAGS} tags on ~40% of them), seeded in ${ms(performance.now() - seeding)}; ` +
        `pages of ${IMAGE_PAGE_SIZE} until a page has fewer than ${IMAGE_PAGE_SIZE} items`,
    );
    client = await BenchClient.connect(
      `ws://127.0.0.1:${server.server.port}${BROKER_PATH}`,
      USER,
      passwordOf(USER),
    );
    reader = sqliteReader(server.dataDir, ownerId);

    // Warm-up, and a check that both read the same rows in the same order.
    const first = await client.pageThroughLd();
    const base = reader.paged();
    reader.single();
    if (first.filenames.length !== images || first.filenames.join() !== base.filenames.join())
      throw new Error('the browser and the baseline did not read the same rows');
    const pages = Math.floor(images / IMAGE_PAGE_SIZE) + 1;

    const changed = sql`update images set bytes = bytes where owner_id = ${ownerId} and id = (select max(id) from images where owner_id = ${ownerId})`;
    const browser: number[] = [];
    const paged: number[] = [];
    const single: number[] = [];
    const deadline = performance.now() + RUNS_TIME_LIMIT_MS;
    while (browser.length < RUNS && performance.now() < deadline) {
      // As after a generation: the user's images changed (a no-op update the triggers count), so
      // the server reads page 1 and the total afresh, and the following pages by keyset.
      await changed.execute(server.db);
      browser.push((await client.pageThroughLd()).ms);
      paged.push(reader.paged().ms);
      single.push(reader.single());
    }
    const total = median(browser);
    const runs = `median of ${browser.length} runs`;
    const line = (label: string, value: number, rest: string) =>
      console.log(`${label.padEnd(52)}: ${ms(value).padStart(9)} | ${rest}`);
    line(
      `LD paging over MQTT, ${pages} list-low-definition requests`,
      total,
      `${runs} (min ${ms(Math.min(...browser))}, max ${ms(Math.max(...browser))}) | ` +
        `goal < ${GOAL_MS / 1000} s: ${verdict(total < GOAL_MS)}`,
    );
    printHeadline({
      figure: `LD list of ${images.toLocaleString('en')} over MQTT, pages of ${IMAGE_PAGE_SIZE}`,
      value: `${ms(total)}, ${ratio(total / median(paged))} plain SQLite's`,
      goal: `< ${GOAL_MS / 1000} s`,
      met: total < GOAL_MS,
    });
    for (const [label, samples] of [
      [`baseline: plain SQLite, same query, ${pages} pages of ${IMAGE_PAGE_SIZE}`, paged],
      ['reference: plain SQLite, one query for all rows', single],
    ] as const) {
      const value = median(samples);
      line(label, value, `${runs} | ratio MQTT / this ${ratio(total / value)}`);
    }
    return total;
  } finally {
    reader?.close();
    await client?.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  const totals: number[] = [];
  for (const images of SIZES) totals.push(await measure(images));
  // Linear cost keeps the time per image flat from one size to the next; OFFSET makes it grow.
  for (let i = 1; i < SIZES.length; i++) {
    const [from, to] = [SIZES[i - 1] as number, SIZES[i] as number];
    const growth = (totals[i] as number) / (totals[i - 1] as number);
    console.log(
      `growth ${from.toLocaleString('en')} → ${to.toLocaleString('en')} images: ` +
        `${ratio(growth)} the time for ${ratio(to / from)} the images ` +
        `(per image ${ratio(growth / (to / from))}; linear: 1.00×)`,
    );
  }
}

await main();
