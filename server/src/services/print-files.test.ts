/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Rows and files the test made itself. */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  API_ROUTES,
  buildHdCommand,
  printEstimateSchema,
  printFileSchema,
  printFilesResponseSchema,
  printFileUrl,
  printPixelSize,
  printProfilesResponseSchema,
  type PrintFile,
  type PrintOrder,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPngText } from '../imaging/png-text.js';
import { testCmykProfile } from '../testing/icc-profile.js';
import { pollUntilEnded, signIn } from '../testing/http.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// Issue 26, part 1, whole: an HD image of a seamless LD image, its print file ordered over HTTP
// as a job (embedded broker, SQLite, the render in its worker thread), listed with its progress,
// downloaded, and removed with the HD image.

const SIZE = 1024;

describe('print files of an HD image', () => {
  let t: TestServer;
  let alice: TestClient;
  let base: string;
  let hd: { filename: string; width: number; height: number };
  const profile = testCmykProfile({ description: 'Test press (CMYK)' });
  const cookies: Record<string, string> = {};

  const api = (user: string, url: string, init: RequestInit = {}) =>
    fetch(`${base}${url}`, {
      ...init,
      headers: { cookie: cookies[user]!, 'content-type': 'application/json', ...init.headers },
    });
  const order = (user: string, body: PrintOrder) =>
    api(user, API_ROUTES.printOrder, { method: 'POST', body: JSON.stringify(body) });
  const filesOf = async (user: string, image: string) => {
    const res = await api(user, `${API_ROUTES.printFiles}?${new URLSearchParams({ image })}`);
    return res.status === 200 ? printFilesResponseSchema.parse(await res.json()).files : res.status;
  };

  /** Polls as the dialog does until the file is made; every state seen on the way. */
  const untilMade = (id: string) =>
    pollUntilEnded(
      async () => ((await filesOf('alice', hd.filename)) as PrintFile[]).find((f) => f.id === id)!,
      (file) => file.status === 'finished' || file.status === 'error',
    );

  beforeAll(async () => {
    t = await startTestServer(['alice', 'bob'], 'embedded');
    base = `http://127.0.0.1:${t.server.port}`;
    for (const user of ['alice', 'bob']) cookies[user] = await signIn(base, user);
    // The operator installs a profile: a file in the profiles folder, read at each listing.
    fs.mkdirSync(t.config.printProfilesDir, { recursive: true });
    fs.writeFileSync(path.join(t.config.printProfilesDir, 'test-press.icc'), profile);
    alice = await t.connect('alice');
    const png = await sharp({
      create: { width: SIZE, height: SIZE, channels: 3, background: '#a0522d' },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 256, height: 256, channels: 3, background: '#d8c8a0' },
          })
            .png()
            .toBuffer(),
          tile: true,
          blend: 'multiply',
        },
      ])
      .png()
      .toBuffer();
    const metadata = { latent_width: SIZE, latent_height: SIZE, kseed: 7, seamless: true };
    await t.files.write(
      'alice',
      'ld',
      'tile.png',
      withPngText(png, 'metadata', JSON.stringify(metadata)),
    );
    expect((await alice.call('refresh-low-definition')).success).toBe(true);
    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: 'tile.png',
      metadata: {},
      sizeLabel: '30x30',
    });
    await alice.send(alice.commandTopic('generate-image'), command);
    await alice.waitFor('the HD order to finish', () =>
      alice.hdStatuses().find((s) => s.id === command.id && s.status === 'finished'),
    );
    hd = await t.db
      .selectFrom('images')
      .select(['filename', 'width', 'height'])
      .where('kind', '=', 'hd')
      .executeTakeFirstOrThrow();
  }, 120_000);

  afterAll(() => t.stop());

  const cmykOrder = (): PrintOrder => ({
    image: hd.filename,
    dpi: 150,
    bleedMm: 3,
    compression: 'lzw',
    bitDepth: 8,
    profile: 'test-press.icc',
  });

  it('lists sRGB and the installed profile, by its description', async () => {
    const res = await api('alice', API_ROUTES.printProfiles);
    expect(printProfilesResponseSchema.parse(await res.json()).profiles).toEqual([
      { id: 'srgb', name: 'sRGB IEC61966-2.1', colourSpace: 'rgb' },
      { id: 'test-press.icc', name: 'Test press (CMYK)', colourSpace: 'cmyk' },
    ]);
  });

  it('makes the ordered file as a job; it downloads whole, as large as estimated', async () => {
    const query = new URLSearchParams(
      Object.entries(cmykOrder()).map(([key, value]): [string, string] => [key, String(value)]),
    );
    const estimate = printEstimateSchema.parse(
      await (await api('alice', `${API_ROUTES.printEstimate}?${query}`)).json(),
    );
    const size = printPixelSize({ widthCm: 30, heightCm: 30 }, 150, 3);
    expect(estimate).toMatchObject({ width: size.width, height: size.height });
    expect(estimate.uncompressedBytes).toBe(size.width * size.height * 4);

    const ordered = await order('alice', cmykOrder());
    expect(ordered.status).toBe(202);
    const queued = printFileSchema.parse(await ordered.json());
    expect(queued).toMatchObject({ status: 'queued', width: size.width, height: size.height });
    const seen = await untilMade(queued.id);
    const made = seen.at(-1)!;
    expect(made).toMatchObject({ status: 'finished', percent: 100 });
    expect(made.filename).toBe('tile_30x30_150dpi_3mm_test-press_8bit_lzw.tif');

    const res = await api('alice', printFileUrl(made.filename!));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/tiff');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect(Number(res.headers.get('content-length'))).toBe(made.bytes);
    const file = Buffer.from(await res.arrayBuffer());
    expect(file.length).toBe(made.bytes);
    // The estimate from a sample band is within a factor of 1.5 of the file made.
    expect(estimate.estimatedBytes / file.length).toBeGreaterThan(1 / 1.5);
    expect(estimate.estimatedBytes / file.length).toBeLessThan(1.5);
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height, meta.space, meta.density]).toEqual([
      size.width,
      size.height,
      'cmyk',
      150,
    ]);
    expect(meta.icc!.equals(profile)).toBe(true);
    const rows = await t.db.selectFrom('print_files').select(['filename', 'job_id']).execute();
    expect(rows).toEqual([{ filename: made.filename, job_id: queued.id }]);
  }, 120_000);

  it('tells nobody else about the image, and refuses bad orders without a job', async () => {
    const jobs = () => t.db.selectFrom('jobs').select('id').where('kind', '=', 'print').execute();
    const before = await jobs();
    expect((await order('bob', cmykOrder())).status).toBe(404);
    expect(await filesOf('bob', hd.filename)).toBe(404);
    const made = (await filesOf('alice', hd.filename)) as PrintFile[];
    expect((await api('bob', printFileUrl(made[0]!.filename!))).status).toBe(404);
    expect((await order('alice', { ...cmykOrder(), profile: 'absent.icc' })).status).toBe(400);
    expect((await order('alice', { ...cmykOrder(), dpi: 20 })).status).toBe(400);
    expect(await jobs()).toEqual(before);
  });

  it('removes the print files with their HD image', async () => {
    const made = (await filesOf('alice', hd.filename)) as PrintFile[];
    const name = made[0]!.filename!;
    expect((await t.files.list('alice', 'print')).map((f) => f.name)).toEqual([name]);
    expect((await alice.call('delete-high-definition', { filename: hd.filename })).success).toBe(
      true,
    );
    expect(await t.files.list('alice', 'print')).toEqual([]);
    expect(await t.db.selectFrom('print_files').selectAll().execute()).toEqual([]);
    expect((await api('alice', printFileUrl(name))).status).toBe(404);
  });
});
