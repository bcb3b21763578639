/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Reads of statuses the test polled itself, present by then. */
import {
  API_ROUTES,
  DEFAULT_HEIGHT_SETTINGS,
  errorText,
  materialMapsStatusSchema,
  materialMapUrl,
  type MaterialMapsStatus,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPngText } from '../imaging/png-text.js';
import { signIn } from '../testing/http.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// Issue 26, part 4, through the real server: maps remade with their height inverted and
// stronger, the settings kept with them, a bad order or a clashing one refused.

const WIDTH = 192;
const HEIGHT = 128;

/** Dark bricks in light mortar. */
async function bricksPng(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const shifted = (x + (Math.floor(y / 32) % 2) * 24) % 48;
      const v = y % 32 < 4 || shifted < 4 ? 225 : 90 + ((x * 13 + y * 7) % 11);
      pixels.set([v, Math.round(v * 0.6), Math.round(v * 0.45)], (y * WIDTH + x) * 3);
    }
  }
  const png = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
  const metadata = { latent_width: WIDTH, latent_height: HEIGHT, kseed: 3, seamless: true };
  return withPngText(png, 'metadata', JSON.stringify(metadata));
}

describe('remaking material maps with other height settings (embedded broker, SQLite)', () => {
  let t: TestServer;
  let base: string;
  let cookie: string;
  let aliceId: number;

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { cookie, 'content-type': 'application/json', ...init.headers },
    });
  const order = (body: unknown) =>
    api(API_ROUTES.materialMapsOrder, { method: 'POST', body: JSON.stringify(body) });
  const status = async (): Promise<MaterialMapsStatus> => {
    const query = new URLSearchParams({ kind: 'ld', image: 'bricks.png' });
    const res = await api(`${API_ROUTES.materialMapsStatus}?${query}`);
    return materialMapsStatusSchema.parse(await res.json());
  };
  async function untilDone(): Promise<MaterialMapsStatus> {
    await expect
      .poll(async () => (await status()).job?.status, { timeout: 60_000, interval: 50 })
      .toBe('finished');
    return status();
  }
  /** The 16-bit levels of the image's height map as it is now. */
  async function heightLevels(): Promise<number[]> {
    const file = (await status()).maps.find((m) => m.map === 'height')!;
    const png = Buffer.from(await (await api(materialMapUrl(file.filename))).arrayBuffer());
    const raw = await sharp(png).toColourspace('grey16').raw({ depth: 'ushort' }).toBuffer();
    return Array.from(new Uint16Array(raw.buffer, raw.byteOffset, raw.length / 2));
  }
  const mapsJobs = () =>
    t.db.selectFrom('jobs').select(['public_id', 'status']).where('kind', '=', 'maps').execute();

  beforeAll(async () => {
    t = await startTestServer(['alice'], 'embedded');
    base = `http://127.0.0.1:${t.server.port}`;
    cookie = await signIn(base, 'alice');
    await t.files.write('alice', 'ld', 'bricks.png', await bricksPng());
    const alice = await t.connect('alice');
    expect((await alice.call('refresh-low-definition')).success).toBe(true);
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    aliceId = user.id;
  }, 60_000);
  afterAll(() => t.stop());

  it('makes the maps as before without settings, and remakes them inverted and stronger', async () => {
    expect((await order({ kind: 'ld', image: 'bricks.png' })).status).toBe(202);
    const first = await untilDone();
    expect(first.height).toEqual(DEFAULT_HEIGHT_SETTINGS);
    expect(first.madeAt).toBeDefined();
    const plain = await heightLevels();

    const height = { invert: true, strength: 2 };
    const remake = await order({ kind: 'ld', image: 'bricks.png', height });
    expect(remake.status).toBe(202);
    // Until the new maps are made, the status tells the maps shown and how they were made.
    const during = materialMapsStatusSchema.parse(await remake.json());
    expect(during.maps.map((m) => m.filename)).toEqual(first.maps.map((m) => m.filename));
    const remade = await untilDone();
    expect(remade.height).toEqual(height);
    expect(remade.madeAt).not.toBe(first.madeAt);
    // Same names, the height turned over: light mortar lies low now.
    expect(remade.maps.map((m) => m.filename)).toEqual(first.maps.map((m) => m.filename));
    expect(await heightLevels()).toEqual(plain.map((level) => 65535 - level));
    const rows = await t.db
      .selectFrom('material_maps')
      .select(['height_invert', 'height_strength'])
      .distinct()
      .execute();
    expect(rows).toEqual([{ height_invert: 1, height_strength: 2 }]);
  }, 120_000);

  it('refuses a bad height with what a height must be, and queues nothing', async () => {
    const before = await mapsJobs();
    for (const height of [
      { invert: 'yes', strength: 1 },
      { invert: true, strength: 5 },
      { invert: true, strength: 0 },
      { invert: false, strength: 1.1 },
      { invert: false },
    ]) {
      const res = await order({ kind: 'ld', image: 'bricks.png', height });
      expect(res.status, JSON.stringify(height)).toBe(400);
      expect(await res.json()).toEqual({ error: errorText('MAPS_HEIGHT_INVALID') });
    }
    const res = await order({ kind: 'xx', image: 'bricks.png', height: DEFAULT_HEIGHT_SETTINGS });
    expect(await res.json()).toEqual({ error: errorText('MAPS_REQUEST_INVALID') });
    expect(await mapsJobs()).toEqual(before);
  });

  it('while a job is live: the same settings report it, other settings are refused', async () => {
    // The owner's maps queue paused, as the queue page pauses it: the job waits, live.
    await t.db
      .insertInto('job_queue_pauses')
      .values({ owner_id: aliceId, kind: 'maps', paused_at: new Date().toISOString() })
      .execute();
    const height = { invert: false, strength: 0.5 };
    const queued = await order({ kind: 'ld', image: 'bricks.png', height });
    expect(queued.status).toBe(202);
    const job = materialMapsStatusSchema.parse(await queued.json()).job!;
    expect(job.status).toBe('queued');

    const again = await order({ kind: 'ld', image: 'bricks.png', height });
    expect(again.status).toBe(202);
    expect(materialMapsStatusSchema.parse(await again.json()).job?.id).toBe(job.id);
    const other = await order({
      kind: 'ld',
      image: 'bricks.png',
      height: { ...height, invert: true },
    });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: errorText('MAPS_HEIGHT_BUSY') });
    expect((await mapsJobs()).filter((j) => j.status === 'queued')).toHaveLength(1);

    await t.db.deleteFrom('job_queue_pauses').where('owner_id', '=', aliceId).execute();
    const done = await untilDone();
    expect(done.job?.id).toBe(job.id);
    expect(done.height).toEqual(height);
  }, 120_000);
});
