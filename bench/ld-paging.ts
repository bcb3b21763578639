// Paging through 10,000 LD images of one user in pages of 100, as the browser does after each
// generation, against a plain SQLite read of the same rows in the same run (issue 3).
// Run: node --import tsx ld-paging.ts
import path from 'node:path';
import { IMAGE_PAGE_SIZE } from '@tessera/contract';
import SQLite from 'better-sqlite3';
import { BROKER_PATH } from '../server/src/broker/embedded.js';
import { createImageRepository } from '../server/src/store/images.js';
import { createTagRepository } from '../server/src/store/tags.js';
import { createUserRepository } from '../server/src/store/users.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../server/src/testing/test-server.js';
import { BenchClient } from './client.js';
import { machineLine } from './machine.js';
import { median, ms, ratio, verdict } from './stats.js';

const USER = 'bench-ld';
const IMAGES = 10_000;
const TAGS = 8;
const RUNS = 11;
const RUNS_TIME_LIMIT_MS = 120_000;
const GOAL_MS = 1000;

const PROMPTS = [
  'seamless stone wall texture, weathered limestone blocks, moss in the joints, soft daylight, top view',
  'hand painted wooden planks, oak, warm tones, stylized game texture, tileable, high detail',
  'ceramic floor tiles, terracotta, hexagonal pattern, slight wear, photorealistic, even lighting',
  'brushed metal plate with rivets, sci-fi panel, scratches, tileable texture, PBR albedo',
  'forest floor, fallen leaves and pine needles, small stones, overcast light, seamless',
  'marble slab, white with grey veins, polished, subtle reflections, square tile, 4k',
];
const NEGATIVE = 'blurry, low quality, watermark, text, signature, visible seams, distorted, jpeg';
const FORMATS = [
  { latent_width: 1024, latent_height: 1024, cr701: 1.5, image692: 2.7 },
  { latent_width: 1448, latent_height: 724, cr701: 1.5, image692: 3.77 },
  { latent_width: 677, latent_height: 1548, cr701: 2.35, image692: 3 },
  { latent_width: 2506, latent_height: 418, cr701: 1.7, image692: 2 },
];

/** Generation parameters as SPEC §3 lists them: 16 fields. */
function metadataOf(i: number, createdAt: string): Record<string, unknown> {
  const format = FORMATS[i % FORMATS.length] as (typeof FORMATS)[number];
  return {
    input_image_path: `input/${USER}/reference_${String(i % 40).padStart(3, '0')}.png`,
    cliptextencode_585: PROMPTS[i % PROMPTS.length],
    cliptextencode_716: NEGATIVE,
    ksampler_cfg: 3.5,
    ksampler_denoise: 1,
    ipadapter_weight: 0.9,
    style: (i % 5) / 100,
    seed: i % 3 === 0 ? 10 : (i * 2_654_435_761) % 2 ** 32,
    latent_width: format.latent_width,
    latent_height: format.latent_height,
    created_at: createdAt,
    updatedAt: createdAt,
    rescale_factor_cr711: 1.74,
    scale_by_latent707: 1,
    rescale_factor_cr701: format.cr701,
    scale_by_image692: format.image692,
  };
}

/** 10,000 rows through the server's own repositories, in one transaction; tag links on ~40%. */
async function seed(server: TestServer): Promise<number> {
  const owner = await createUserRepository(server.db).findByUsername(USER);
  if (!owner) throw new Error(`no user ${USER}`);
  const start = Date.parse('2025-01-01T00:00:00Z');
  await server.db.transaction().execute(async (trx) => {
    const tags = createTagRepository(trx);
    for (let t = 0; t < TAGS; t++)
      await tags.insert(owner.id, { id: `tag-${t}`, name: `Tag ${t}`, color: '#3a7bd5' });
    const images = createImageRepository(trx);
    for (let i = 0; i < IMAGES; i++) {
      const createdAt = new Date(start + i * 37_000).toISOString();
      const format = FORMATS[i % FORMATS.length] as (typeof FORMATS)[number];
      const image = await images.insert({
        ownerId: owner.id,
        kind: 'ld',
        filename: `ComfyUI_${String(i + 1).padStart(5, '0')}_.png`,
        sourceImageId: null,
        width: format.latent_width,
        height: format.latent_height,
        bytes: 900_000 + ((i * 7919) % 600_000),
        metadata: metadataOf(i, createdAt),
        createdAt,
      });
      if (i % 3 === 0) await images.assignTag(owner.id, image.id, `tag-${i % TAGS}`);
      if (i % 10 === 0) await images.assignTag(owner.id, image.id, `tag-${(i + 3) % TAGS}`);
    }
  });
  return owner.id;
}

/** The browser's way: pages of 100 until a page has fewer than 100 items. */
async function browserPaging(client: BenchClient): Promise<{ ms: number; filenames: string[] }> {
  const filenames: string[] = [];
  const start = performance.now();
  for (let page = 1; ; page++) {
    const body = await client.request('list-low-definition', {
      page,
      size: IMAGE_PAGE_SIZE,
      filters: { tags: [] },
    });
    if (body.success !== true || !Array.isArray(body.images))
      throw new Error(`list-low-definition failed: ${JSON.stringify(body).slice(0, 200)}`);
    for (const item of body.images as { filename: string }[]) filenames.push(item.filename);
    if (body.images.length < IMAGE_PAGE_SIZE) break;
    if (page > IMAGES) throw new Error('paging does not end');
  }
  return { ms: performance.now() - start, filenames };
}

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

async function main(): Promise<void> {
  console.log(machineLine());
  const server = await startTestServer([USER], 'embedded');
  let client: BenchClient | undefined;
  let reader: ReturnType<typeof sqliteReader> | undefined;
  try {
    const seeding = performance.now();
    const ownerId = await seed(server);
    console.log(
      `LD paging: ${IMAGES.toLocaleString('en')} LD images of one user (16 metadata fields, ` +
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
    const first = await browserPaging(client);
    const base = reader.paged();
    reader.single();
    if (first.filenames.length !== IMAGES || first.filenames.join() !== base.filenames.join())
      throw new Error('the browser and the baseline did not read the same rows');
    const pages = Math.floor(IMAGES / IMAGE_PAGE_SIZE) + 1;

    const browser: number[] = [];
    const paged: number[] = [];
    const single: number[] = [];
    const deadline = performance.now() + RUNS_TIME_LIMIT_MS;
    while (browser.length < RUNS && performance.now() < deadline) {
      browser.push((await browserPaging(client)).ms);
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
    for (const [label, samples] of [
      [`baseline: plain SQLite, same query, ${pages} pages of ${IMAGE_PAGE_SIZE}`, paged],
      ['reference: plain SQLite, one query for all rows', single],
    ] as const) {
      const value = median(samples);
      line(label, value, `${runs} | ratio MQTT / this ${ratio(total / value)}`);
    }
  } finally {
    reader?.close();
    await client?.close();
    await server.stop();
  }
}

await main();
