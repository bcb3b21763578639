/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the test made itself, at indices inside them. */
import { randomUUID } from 'node:crypto';
import {
  API_ROUTES,
  buildHdCommand,
  MATERIAL_MAPS,
  MATERIAL_PREVIEW_MAX_SIDE,
  materialMapsStatusSchema,
  materialMapUrl,
  zipFileUrl,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPngText } from '../imaging/png-text.js';
import { pollUntilEnded, signIn } from '../testing/http.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const SIZE = 1024;

/** A texture that tiles: whole periods of waves across it, and a fine tileable grain. */
function seamlessPixels(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const wave =
        Math.sin((2 * Math.PI * 5 * x) / SIZE) * Math.cos((2 * Math.PI * 3 * y) / SIZE) +
        0.5 * Math.sin((2 * Math.PI * 17 * (x + y)) / SIZE);
      const grain = ((x * 7919 + y * 104729) % 23) - 11;
      const v = Math.round(128 + 60 * wave + grain);
      pixels.set([v, Math.round(v * 0.8), Math.round(v * 0.6)], (y * SIZE + x) * 3);
    }
  }
  return pixels;
}

/** Mean step across the left/right edge against the mean step of the column pairs beside it. */
async function seamRatio(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  let seam = 0;
  let beside = 0;
  for (let y = 0; y < height; y++) {
    const at = (x: number, c: number) => data[(y * width + x) * channels + c]!;
    for (let c = 0; c < channels; c++) {
      seam += Math.abs(at(width - 1, c) - at(0, c));
      beside += (Math.abs(at(1, c) - at(0, c)) + Math.abs(at(width - 1, c) - at(width - 2, c))) / 2;
    }
  }
  return seam / beside;
}

describe('material maps as a job (embedded broker, SQLite file, worker thread)', () => {
  let t: TestServer;
  let alice: TestClient;
  let base: string;
  const cookies: Record<string, string> = {};

  const api = (user: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { cookie: cookies[user]!, 'content-type': 'application/json', ...init.headers },
    });
  const order = (user: string, kind: 'ld' | 'hd', image: string) =>
    api(user, API_ROUTES.materialMapsOrder, {
      method: 'POST',
      body: JSON.stringify({ kind, image }),
    });
  const status = async (user: string, kind: 'ld' | 'hd', image: string) => {
    const query = new URLSearchParams({ kind, image });
    const res = await api(user, `${API_ROUTES.materialMapsStatus}?${query}`);
    return {
      res,
      body: res.status === 200 ? materialMapsStatusSchema.parse(await res.json()) : undefined,
    };
  };

  /** Polls as the page does until the job ends; every status seen on the way. */
  const untilDone = (kind: 'ld' | 'hd', image: string) =>
    pollUntilEnded(
      async () => (await status('alice', kind, image)).body!,
      (body) => body.job?.status === 'finished' || body.job?.status === 'error',
    );

  beforeAll(async () => {
    t = await startTestServer(['alice', 'bob'], 'embedded');
    base = `http://127.0.0.1:${t.server.port}`;
    for (const user of ['alice', 'bob']) cookies[user] = await signIn(base, user);
    alice = await t.connect('alice');
    const png = await sharp(seamlessPixels(), { raw: { width: SIZE, height: SIZE, channels: 3 } })
      .png()
      .toBuffer();
    const metadata = { latent_width: SIZE, latent_height: SIZE, kseed: 7 };
    for (const [name, seamless] of [
      ['waves-seamless.png', true],
      ['waves-plain.png', false],
    ] as const) {
      await t.files.write(
        'alice',
        'ld',
        name,
        withPngText(png, 'metadata', JSON.stringify({ ...metadata, seamless })),
      );
    }
    expect((await alice.call('refresh-low-definition')).success).toBe(true);
  }, 60_000);

  afterAll(() => t.stop());

  it('makes the five maps of a seamless LD image at its size, and they tile', async () => {
    const ordered = await order('alice', 'ld', 'waves-seamless.png');
    expect(ordered.status).toBe(202);
    const seen = await untilDone('ld', 'waves-seamless.png');
    const last = seen.at(-1)!;
    expect(last.job).toMatchObject({ status: 'finished', percent: 100 });
    expect(last.seamless).toBe(true);
    expect(last.maps.map((m) => m.map)).toEqual([...MATERIAL_MAPS]);
    expect(last.colourPreview).toBeDefined();

    for (const map of last.maps) {
      const res = await api('alice', materialMapUrl(map.filename));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('attachment');
      const file = Buffer.from(await res.arrayBuffer());
      expect(file.length).toBe(map.bytes);
      const meta = await sharp(file).metadata();
      expect([meta.width, meta.height]).toEqual([SIZE, SIZE]);
      const preview = await sharp(
        Buffer.from(await (await api('alice', materialMapUrl(map.preview))).arrayBuffer()),
      ).metadata();
      expect(Math.max(preview.width, preview.height)).toBe(MATERIAL_PREVIEW_MAX_SIDE);
      if (map.map === 'normal-opengl' || map.map === 'ambient-occlusion') {
        expect(await seamRatio(file), map.map).toBeLessThan(1.5);
      }
    }
    // The job is a row of the jobs table and the maps rows of migration 0012.
    const rows = await t.db.selectFrom('material_maps').selectAll().execute();
    expect(rows.filter((r) => r.seamless === 1)).toHaveLength(5);
    const jobs = await t.db
      .selectFrom('jobs')
      .select(['kind', 'status'])
      .where('kind', '=', 'maps')
      .execute();
    expect(jobs).toEqual([{ kind: 'maps', status: 'finished' }]);
  }, 120_000);

  it('clamps the edges of an image that is not seamless: same maps inside, others at the edges', async () => {
    expect((await order('alice', 'ld', 'waves-plain.png')).status).toBe(202);
    const last = (await untilDone('ld', 'waves-plain.png')).at(-1)!;
    expect(last.seamless).toBe(false);
    const normals = async (image: string) => {
      const { body } = await status('alice', 'ld', image);
      const normal = body!.maps.find((m) => m.map === 'normal-opengl')!;
      const res = await api('alice', materialMapUrl(normal.filename));
      return sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer();
    };
    const plain = await normals('waves-plain.png');
    const tiled = await normals('waves-seamless.png');
    // A column's pixels away from the top and bottom edges, which differ too.
    const column = (pixels: Buffer, x: number) =>
      Buffer.concat(
        Array.from({ length: SIZE - 128 }, (_, i) => {
          const at = ((i + 64) * SIZE + x) * 3;
          return pixels.subarray(at, at + 3);
        }),
      );
    expect(column(plain, SIZE / 2).equals(column(tiled, SIZE / 2))).toBe(true);
    expect(column(plain, 0).equals(column(tiled, 0))).toBe(false);
    expect(column(plain, SIZE - 1).equals(column(tiled, SIZE - 1))).toBe(false);
  }, 120_000);

  it('makes an HD image’s maps, seamless by its LD source, reporting progress on the way', async () => {
    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: 'waves-seamless.png',
      metadata: {},
      sizeLabel: '30x30',
    });
    await alice.send(alice.commandTopic('generate-image'), command);
    // Its image row is written before its 'finished' status is published.
    await alice.waitFor('the HD order to finish', () =>
      alice.hdStatuses().find((s) => s.id === command.id && s.status === 'finished'),
    );
    const hd = await t.db
      .selectFrom('images')
      .select(['filename', 'width', 'height'])
      .where('kind', '=', 'hd')
      .executeTakeFirstOrThrow();

    expect((await order('alice', 'hd', hd.filename)).status).toBe(202);
    const seen = await untilDone('hd', hd.filename);
    const last = seen.at(-1)!;
    expect(last.job?.status).toBe('finished');
    expect(last.seamless).toBe(true);
    const midway = seen.filter((s) => s.job?.status === 'in_progress').map((s) => s.job!.percent);
    expect(midway.some((p) => p > 0 && p < 100)).toBe(true);
    const height = last.maps.find((m) => m.map === 'height')!;
    const file = Buffer.from(
      await (await api('alice', materialMapUrl(height.filename))).arrayBuffer(),
    );
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height, meta.depth]).toEqual([hd.width, hd.height, 'ushort']);
  }, 180_000);

  it('downloads an image’s maps as one ZIP, and only the owner’s maps', async () => {
    const { body } = await status('alice', 'ld', 'waves-seamless.png');
    const files = body!.maps.map((m) => m.filename);
    const prepare = (user: string, names: string[]) =>
      api(user, API_ROUTES.zipCreate, {
        method: 'POST',
        body: JSON.stringify({ kind: 'maps', files: names }),
      });
    expect((await prepare('bob', files)).status).toBe(404);
    expect((await prepare('alice', ['waves-seamless.png'])).status).toBe(404);
    const ticket = (await (await prepare('alice', files)).json()) as {
      token: string;
      files: number;
    };
    expect(ticket.files).toBe(5);
    const zip = await api('alice', zipFileUrl(ticket.token));
    expect(zip.status).toBe(200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.length).toBe(Number(zip.headers.get('content-length')));
    const total = body!.maps.reduce((sum, m) => sum + m.bytes, 0);
    expect(bytes.length).toBeGreaterThan(total);
    for (const name of files) expect(bytes.includes(Buffer.from(name))).toBe(true);
  });

  it('tells nobody else about the image and refuses bad orders without a job', async () => {
    const before = await t.db.selectFrom('jobs').select('id').where('kind', '=', 'maps').execute();
    expect((await order('bob', 'ld', 'waves-seamless.png')).status).toBe(404);
    expect((await status('bob', 'ld', 'waves-seamless.png')).res.status).toBe(404);
    expect((await api('bob', materialMapUrl('waves-seamless_ld_height.png'))).status).toBe(404);
    for (const body of [
      { kind: 'ld' },
      { kind: 'xx', image: 'a.png' },
      { kind: 'ld', image: '../bob/ld/a.png' },
    ]) {
      const res = await api('alice', API_ROUTES.materialMapsOrder, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
    }
    const after = await t.db.selectFrom('jobs').select('id').where('kind', '=', 'maps').execute();
    expect(after).toEqual(before);
  });

  it('deletes an image’s maps with the image', async () => {
    const { body } = await status('alice', 'ld', 'waves-plain.png');
    const names = body!.maps.flatMap((m) => [m.filename, m.preview]);
    expect(names).toHaveLength(10);
    const before = await t.files.list('alice', 'maps');
    expect(
      (await alice.call('delete-low-definition', { filename: 'waves-plain.png' })).success,
    ).toBe(true);
    const after = new Set((await t.files.list('alice', 'maps')).map((f) => f.name));
    for (const name of names) expect(after.has(name), name).toBe(false);
    expect(after.has('waves-plain_ld_colour.preview.jpg')).toBe(false);
    expect(after.size).toBe(before.length - 11);
    const rows = await t.db.selectFrom('material_maps').select('filename').execute();
    expect(rows.some((r) => names.includes(r.filename))).toBe(false);
    expect((await api('alice', materialMapUrl(names[0]!))).status).toBe(404);
  });
});
