/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Reads of files and maps the test made itself. */
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  API_ROUTES,
  errorText,
  materialMapsStatusSchema,
  materialPackageUrl,
  type MaterialMap,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPngText } from '../../imaging/png-text.js';
import { recordHdImage } from '../../testing/database.js';
import { validatedGlb } from '../../testing/gltf.js';
import { signIn } from '../../testing/http.js';
import { glbTile, materialxFiles, zipEntries, zipEntry } from '../../testing/material-package.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

/**
 * Issue 26, part 3 over real HTTP, a real SQLite file, real maps made by the maps job and real
 * libvips: an image's material package as a ZIP, opened with Info-ZIP's `unzip`.
 */

let t: TestServer;
let dir: string;
const cookies: Record<string, string> = {};
/** The stored maps of waves.png, by map. */
const ldMaps = {} as Record<MaterialMap, string>;
const HD_NAME = 'waves-30x60.png';

/** The Rectangle format (1448 x 724, whose HD sizes run 30x60 to 120x240) with some relief. */
async function rectanglePng(): Promise<Buffer> {
  const [width, height] = [1448, 724];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = Math.round(128 + 80 * Math.sin(x / 23) * Math.cos(y / 17) + ((x * y) % 13));
      pixels.set([v, Math.round(v * 0.8), Math.round(v * 0.6)], (y * width + x) * 3);
    }
  }
  const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return withPngText(
    png,
    'metadata',
    JSON.stringify({ latent_width: width, latent_height: height }),
  );
}

const get = (user: string, url: string) =>
  fetch(`${t.server.url}${url}`, { headers: { cookie: cookies[user]! } });

async function mapsOf(kind: 'ld' | 'hd', image: string) {
  const query = new URLSearchParams({ kind, image });
  const res = await get('alice', `${API_ROUTES.materialMapsStatus}?${query}`);
  return materialMapsStatusSchema.parse(await res.json());
}

/** Orders the image's maps and waits for the maps job to finish. */
async function makeMaps(kind: 'ld' | 'hd', image: string) {
  const res = await fetch(`${t.server.url}${API_ROUTES.materialMapsOrder}`, {
    method: 'POST',
    headers: { cookie: cookies['alice']!, 'content-type': 'application/json' },
    body: JSON.stringify({ kind, image }),
  });
  expect(res.status).toBe(202);
  return t.waitForJobs('alice', `the maps of ${image}`, async () => {
    const status = await mapsOf(kind, image);
    return status.job?.status === 'finished' ? status : undefined;
  });
}

/** Downloads a package to a file: its response and where the ZIP is. */
async function download(query: Parameters<typeof materialPackageUrl>[0]) {
  const res = await get('alice', materialPackageUrl(query));
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length'))).toBe(body.length);
  const file = path.join(
    dir,
    `${query.kind}-${query.preset}-${query.size ?? ''}-${query.lang ?? ''}.zip`,
  );
  await fsp.writeFile(file, body);
  return { res, file };
}

/** One channel of a PNG's pixels. */
async function channel(png: Buffer, index: 0 | 1 | 2 | 3): Promise<Buffer> {
  return sharp(png).extractChannel(index).raw().toBuffer();
}

/** What a user could see change: the names and sizes of alice's files, and the scratch folder. */
async function everything(): Promise<string[]> {
  const seen = [];
  for (const area of ['ld', 'hd', 'maps'] as const) {
    for (const file of await t.files.list('alice', area))
      seen.push(`${area}/${file.name} ${file.bytes}`);
  }
  const scratch = await fsp.readdir(path.join(t.dataDir, 'tmp')).catch(() => []);
  return [...seen, ...scratch.map((name) => `tmp/${name}`)].sort();
}

beforeAll(async () => {
  t = await startTestServer(['alice', 'bob'], 'embedded');
  dir = await fsp.mkdtemp(path.join(t.dataDir, 'packages-'));
  for (const user of ['alice', 'bob']) cookies[user] = await signIn(t.server.url, user);
  const png = await rectanglePng();
  await t.files.write('alice', 'ld', 'waves.png', png);
  await t.files.write('alice', 'ld', 'plain.png', png);
  const client = await t.connect('alice');
  expect((await client.call('refresh-low-definition')).success).toBe(true);
  // An HD image ordered at 30x60 (small here: its size is what its metadata says).
  const hd = await sharp(png).resize(290, 145).png().toBuffer();
  const stored = await t.files.write('alice', 'hd', HD_NAME, hd);
  await recordHdImage(t.db, 'alice', {
    filename: HD_NAME,
    width: 290,
    height: 145,
    bytes: stored.bytes,
    metadata: { size: '30x60', source_image: 'waves.png' },
  });
  for (const map of (await makeMaps('ld', 'waves.png')).maps) ldMaps[map.map] = map.filename;
  await makeMaps('hd', HD_NAME);
}, 120_000);
afterAll(() => t?.stop());

describe('GET a material package', () => {
  it('standard: the maps under Poly Haven names, the ORM, a clean glTF tile of the ordered size and a MaterialX document', async () => {
    const { res, file } = await download({ kind: 'ld', image: 'waves.png', preset: 'standard' });
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('filename="waves_ld_material.zip"');
    const names = [
      'waves_ld_diff.png',
      'waves_ld_nor_gl.png',
      'waves_ld_nor_dx.png',
      'waves_ld_rough.png',
      'waves_ld_ao.png',
      'waves_ld_disp.png',
      'waves_ld_arm.png',
      'waves_ld.glb',
      'waves_ld.mtlx',
      'README.txt',
    ];
    expect(zipEntries(file)).toEqual(names);

    // The base colour is the image; the height keeps its 16 bits, byte for byte.
    expect(
      zipEntry(file, 'waves_ld_diff.png').equals(
        await t.files.readBuffer('alice', 'ld', 'waves.png'),
      ),
    ).toBe(true);
    const height = zipEntry(file, 'waves_ld_disp.png');
    expect(height.equals(await t.files.readBuffer('alice', 'maps', ldMaps.height))).toBe(true);
    expect((await sharp(height).metadata()).depth).toBe('ushort');

    // ORM: the occlusion and roughness maps' own pixels, and no metal.
    const orm = zipEntry(file, 'waves_ld_arm.png');
    const stored = (map: MaterialMap) => t.files.readBuffer('alice', 'maps', ldMaps[map]);
    expect(
      (await channel(orm, 0)).equals(await channel(await stored('ambient-occlusion'), 0)),
    ).toBe(true);
    expect((await channel(orm, 1)).equals(await channel(await stored('roughness'), 0))).toBe(true);
    expect((await channel(orm, 2)).every((v) => v === 0)).toBe(true);

    // The first HD size of the Rectangle format, 30x60: 0.6 m wide, 0.3 m high.
    const glb = zipEntry(file, 'waves_ld.glb');
    const report = await validatedGlb(glb);
    expect([report.issues.numErrors, report.issues.numWarnings]).toEqual([0, 0]);
    const tile = await glbTile(glb);
    expect(tile.max).toEqual([0.3, 0.15, 0].map(Math.fround));
    expect(tile.repeat).toEqual([1 / 0.6, 1 / 0.3]);

    // The MaterialX document is XML and reads only files the ZIP holds.
    const mtlx = zipEntry(file, 'waves_ld.mtlx').toString('utf8');
    const read = materialxFiles(mtlx);
    for (const name of read) expect(names).toContain(name);
    expect(read.sort()).toEqual([
      'waves_ld_diff.png',
      'waves_ld_disp.png',
      'waves_ld_nor_gl.png',
      'waves_ld_rough.png',
    ]);
    expect(mtlx).toContain('<input name="uvtiling" type="vector2" value="1.666667, 3.333333" />');
    // A hundredth of the shorter side at strength 1: 3 mm.
    expect(mtlx).toContain('<input name="scale" type="float" value="0.003" />');

    const readme = zipEntry(file, 'README.txt').toString('utf8');
    // In the default language, unless the interface asks for another (below).
    expect(readme).toContain('60 x 30 cm (0,6 x 0,3 m, ancho x alto), tamaño 30x60');
    expect(readme).toContain('la convención de Poly Haven');
    expect(readme).toMatch(/\r\n {2}waves_ld_arm\.png +ORM: R oclusión ambiental, G rugosidad/);
    // The scratch files go once the ZIP went out.
    await expect
      .poll(async () => (await everything()).filter((f) => f.startsWith('tmp/')))
      .toEqual([]);
  });

  it('writes README.txt in the language the interface shows (issue 30, part 5)', async () => {
    const { file } = await download({
      kind: 'ld',
      image: 'waves.png',
      preset: 'unreal',
      lang: 'en',
    });
    const readme = zipEntry(file, 'README.txt').toString('utf8');
    expect(readme).toContain('60 x 30 cm (0.6 x 0.3 m, width x height), size 30x60');
    expect(readme).toContain("Poly Haven's convention");
    expect(readme).toMatch(/\r\n {2}waves_ld_arm\.png +ORM: R ambient occlusion, G roughness/);
    expect(readme).not.toContain('tamaño');
  });

  it.each([
    ['unreal', 'waves_ld_material_unreal.zip', ['diff', 'nor_dx', 'arm', 'disp']],
    ['unity-hdrp', 'waves_ld_material_unity-hdrp.zip', ['diff', 'nor_gl', 'mask', 'disp']],
  ] as const)(
    '%s: only the maps that preset takes, packed its way',
    async (preset, zipName, suffixes) => {
      const { res, file } = await download({ kind: 'ld', image: 'waves.png', preset });
      expect(res.headers.get('content-disposition')).toContain(`filename="${zipName}"`);
      expect(zipEntries(file)).toEqual([...suffixes.map((s) => `waves_ld_${s}.png`), 'README.txt']);
      if (preset === 'unity-hdrp') {
        const mask = zipEntry(file, 'waves_ld_mask.png');
        const roughness = await channel(
          await t.files.readBuffer('alice', 'maps', ldMaps.roughness),
          0,
        );
        expect((await channel(mask, 3)).equals(roughness.map((v) => 255 - v))).toBe(true);
      }
    },
  );

  it("sizes an LD image's tile as asked, and an HD image's as it was ordered", async () => {
    const ld = await download({
      kind: 'ld',
      image: 'waves.png',
      preset: 'standard',
      size: '45x90',
    });
    expect((await glbTile(zipEntry(ld.file, 'waves_ld.glb'))).max).toEqual(
      [0.45, 0.225, 0].map(Math.fround),
    );
    // An HD image's size is its own: a size in the query does not change it.
    const hd = await download({ kind: 'hd', image: HD_NAME, preset: 'standard', size: '120x240' });
    expect(hd.res.headers.get('content-disposition')).toContain(
      'filename="waves-30x60_hd_material.zip"',
    );
    expect((await glbTile(zipEntry(hd.file, 'waves-30x60_hd.glb'))).max).toEqual(
      [0.3, 0.15, 0].map(Math.fround),
    );
  });

  it('leaves nothing behind when the browser goes away while the package is made', async () => {
    const scratch = async () => (await everything()).filter((f) => f.startsWith('tmp/'));
    const leaving = new AbortController();
    const url = materialPackageUrl({ kind: 'ld', image: 'waves.png', preset: 'unity-hdrp' });
    const request = fetch(`${t.server.url}${url}`, {
      headers: { cookie: cookies['alice']! },
      signal: leaving.signal,
    }).catch((err: unknown) => err);
    // The files are being made in a scratch folder: the browser leaves now.
    // (Looked at every 5 ms: an LD package takes a few hundred.)
    await expect.poll(scratch, { timeout: 20_000, interval: 5 }).not.toEqual([]);
    leaving.abort();
    expect(await request).toBeInstanceOf(Error);
    await expect.poll(scratch, { timeout: 20_000 }).toEqual([]);
    // The server goes on answering.
    expect((await download({ kind: 'ld', image: 'waves.png', preset: 'unreal' })).res.ok).toBe(
      true,
    );
  });

  it('refuses with the contract texts, and nothing changes', async () => {
    const before = await everything();
    const refused = async (
      user: string | undefined,
      query: string,
      status: number,
      error: string,
    ) => {
      const res = await fetch(`${t.server.url}${API_ROUTES.materialPackage}?${query}`, {
        headers: user ? { cookie: cookies[user]! } : {},
      });
      expect([res.status, await res.json()]).toEqual([status, { error }]);
    };
    const invalid = errorText('MATERIAL_PACKAGE_REQUEST_INVALID');
    await refused('alice', 'image=waves.png', 400, invalid);
    await refused('alice', 'kind=maps&image=waves.png', 400, invalid);
    await refused('alice', 'kind=ld&image=waves.png&preset=blender', 400, invalid);
    await refused('alice', 'kind=ld&image=..%2Fbob%2Fwaves.png', 400, invalid);
    await refused(
      'alice',
      'kind=ld&image=nowhere.png',
      404,
      errorText('ORDERED_IMAGE_NOT_FOUND', 'nowhere.png'),
    );
    await refused(
      'bob',
      'kind=ld&image=waves.png',
      404,
      errorText('ORDERED_IMAGE_NOT_FOUND', 'waves.png'),
    );
    await refused('alice', 'kind=ld&image=plain.png', 409, errorText('MATERIAL_PACKAGE_NO_MAPS'));
    // A Square size on a Rectangle image.
    await refused(
      'alice',
      'kind=ld&image=waves.png&size=30x30',
      400,
      errorText('HD_SIZE_NOT_OFFERED', '30x30'),
    );
    const res = await fetch(
      `${t.server.url}${materialPackageUrl({ kind: 'ld', image: 'waves.png', preset: 'standard' })}`,
    );
    expect(res.status).toBe(401);
    expect(await everything()).toEqual(before);
  });
});
