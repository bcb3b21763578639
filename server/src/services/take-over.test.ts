import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userService } from '../container-admin.js';
import type { FileArea } from '../files/file-store.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { FILE_AREAS } from '../files/places.js';
import { openDatabase, type Db } from '../store/database.js';
import { createImageRepository } from '../store/images.js';
import { createMaterialMapRepository } from '../store/material-maps.js';
import { createReferenceRepository } from '../store/references.js';
import { createAuditRepository } from '../store/audit.js';
import { passwordOf, silentLogger, tempDir } from '../testing/fixtures.js';
import { runEntry } from '../testing/processes.js';
import { AuditLog } from './audit.js';

// An admin takes over a retired user's images (issue 29, part 2): real SQLite, real files, and
// for the crash points `npm run users` as a real process that kills itself at the named step.

let data: ReturnType<typeof tempDir>;
let files: LocalFileStore;

const open = () => openDatabase({ dataDir: data.dir });
const users = (db: Db) =>
  userService(db, files, data.dir, new AuditLog(createAuditRepository(db), silentLogger));
const bytes = (text: string) => Buffer.from(text);

/** Every file of a user, as `area/name` → its text. */
async function filesOf(owner: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const area of FILE_AREAS) {
    for (const file of await files.list(owner, area))
      found[`${area}/${file.name}`] = String(await files.readBuffer(owner, area, file.name));
  }
  return found;
}

async function imagesOf(owner: string): Promise<string[]> {
  const db = await open();
  try {
    const rows = await db
      .selectFrom('images')
      .innerJoin('users', 'users.id', 'images.owner_id')
      .select(['images.kind', 'images.filename'])
      .where('users.username', '=', owner)
      .orderBy('images.id')
      .execute();
    return rows.map((row) => `${row.kind}/${row.filename}`);
  } finally {
    await db.destroy();
  }
}

const put = (owner: string, area: FileArea, name: string, text: string) =>
  files.write(owner, area, name, bytes(text));

beforeEach(async () => {
  data = tempDir();
  files = new LocalFileStore(path.join(data.dir, 'files'));
  const db = await open();
  const service = users(db);
  await service.add('boss', passwordOf('boss'));
  await service.add('dora', passwordOf('dora'));
  const images = createImageRepository(db);
  const ids = new Map<string, number>();
  for (const [owner, kind, filename, metadata] of [
    ['boss', 'ld', 'tile.png', {}],
    ['dora', 'ld', 'tile.png', { input_image_path: 'ref.png' }],
    ['dora', 'hd', 'tile_30x30.png', { source_image: 'tile.png' }],
  ] as const) {
    const user = await service.owner(owner);
    const record = await images.insert({
      ownerId: user?.id ?? 0,
      kind,
      filename,
      sourceImageId: kind === 'hd' ? (ids.get('dora/tile.png') ?? null) : null,
      width: 64,
      height: 64,
      bytes: 10,
      metadata,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    ids.set(`${owner}/${filename}`, record.id);
    await put(owner, kind, filename, `${owner} ${filename}`);
    await put(owner, `${kind}-thumbnails`, `${filename}.webp`, `${owner} thumb ${filename}`);
  }
  const dora = (await service.owner('dora'))?.id ?? 0;
  await createMaterialMapRepository(db).replace(
    dora,
    ids.get('dora/tile.png') ?? 0,
    {
      seamless: false,
      height: { invert: false, strength: 1 },
      maps: [
        {
          map: 'normal-opengl',
          filename: 'tile_ld_normal-opengl.png',
          bytes: 5,
          preview: 'tile_ld_normal-opengl.preview.png',
        },
      ],
    },
    '2026-01-02T00:00:00.000Z',
  );
  for (const name of [
    'tile_ld_normal-opengl.png',
    'tile_ld_normal-opengl.preview.png',
    'tile_ld_colour.preview.jpg',
  ])
    await put('dora', 'maps', name, `dora ${name}`);
  await put('dora', 'input', 'ref.png', 'dora ref');
  await createReferenceRepository(db).record(dora, 'ref.png', 'hash-of-ref', '2026-01-01');
  await service.remove('dora', undefined, 'keep');
  await db.destroy();
});
afterEach(() => data.remove());

const DORA_FILES = {
  'input/ref.png': 'dora ref',
  'ld/tile.png': 'dora tile.png',
  'hd/tile_30x30.png': 'dora tile_30x30.png',
  'ld-thumbnails/tile.png.webp': 'dora thumb tile.png',
  'hd-thumbnails/tile_30x30.png.webp': 'dora thumb tile_30x30.png',
  'maps/tile_ld_normal-opengl.png': 'dora tile_ld_normal-opengl.png',
  'maps/tile_ld_normal-opengl.preview.png': 'dora tile_ld_normal-opengl.preview.png',
  'maps/tile_ld_colour.preview.jpg': 'dora tile_ld_colour.preview.jpg',
};

/** boss's files once the take-over is done: dora's tile.png renamed, and all that follows it. */
const BOSS_AFTER = {
  'ld/tile.png': 'boss tile.png',
  'ld-thumbnails/tile.png.webp': 'boss thumb tile.png',
  'input/ref.png': 'dora ref',
  'ld/tile-2.png': 'dora tile.png',
  'hd/tile_30x30.png': 'dora tile_30x30.png',
  'ld-thumbnails/tile-2.png.webp': 'dora thumb tile.png',
  'hd-thumbnails/tile_30x30.png.webp': 'dora thumb tile_30x30.png',
  'maps/tile-2_ld_normal-opengl.png': 'dora tile_ld_normal-opengl.png',
  'maps/tile-2_ld_normal-opengl.preview.png': 'dora tile_ld_normal-opengl.preview.png',
  'maps/tile-2_ld_colour.preview.jpg': 'dora tile_ld_colour.preview.jpg',
};

async function expectDone(): Promise<void> {
  expect(await imagesOf('boss')).toEqual(['ld/tile.png', 'ld/tile-2.png', 'hd/tile_30x30.png']);
  expect(await filesOf('boss')).toEqual(BOSS_AFTER);
  expect(await filesOf('dora')).toEqual({});
  const db = await open();
  try {
    const service = users(db);
    expect((await service.list()).map((u) => u.username)).toEqual(['boss']);
    const boss = await service.owner('boss');
    const images = createImageRepository(db);
    const hd = await images.find(boss?.id ?? 0, 'hd', 'tile_30x30.png');
    expect(hd?.metadata).toMatchObject({ source_image: 'tile-2.png' });
    const ld = await images.find(boss?.id ?? 0, 'ld', 'tile-2.png');
    expect(ld?.metadata).toMatchObject({ input_image_path: 'ref.png' });
    expect(await createMaterialMapRepository(db).ofImage(ld?.id ?? 0)).toMatchObject({
      maps: [
        {
          filename: 'tile-2_ld_normal-opengl.png',
          preview: 'tile-2_ld_normal-opengl.preview.png',
        },
      ],
    });
  } finally {
    await db.destroy();
  }
}

const takeOver = (fault?: string) =>
  runEntry('commands/users.ts', ['take-over', 'dora', 'boss'], {
    DATA_DIR: data.dir,
    ...(fault && { TESSERA_FAULT_POINT: fault }),
  });

describe('taking over a retired user', () => {
  it("makes every image, map and reference the admin's, renamed where the admin has the name", async () => {
    const db = await open();
    try {
      const service = users(db);
      expect(await service.takeOver('dora', 'boss')).toEqual({
        username: 'dora',
        to: 'boss',
        ldImages: 1,
        hdImages: 1,
        renamed: 1,
        files: 8,
      });
      await expect(service.takeOver('dora', 'boss')).rejects.toThrow("No user 'dora'");
      await expect(service.takeOver('boss', 'dora')).rejects.toThrow('not an enabled admin');
    } finally {
      await db.destroy();
    }
    await expectDone();
  });

  it('changes nothing anyone sees when it crashes after copying; a re-run finishes', async () => {
    expect((await takeOver('take-over:copied')).code).toBeNull();
    expect(await imagesOf('boss')).toEqual(['ld/tile.png']);
    expect(await imagesOf('dora')).toEqual(['ld/tile.png', 'hd/tile_30x30.png']);
    expect(await filesOf('dora')).toEqual(DORA_FILES);

    const rerun = await takeOver();
    expect(rerun).toMatchObject({ code: 0 });
    expect(rerun.stdout).toContain("1 LD and 1 HD images of 'dora' are now 'boss's (1 renamed)");
    await expectDone();
  }, 60_000);

  it('leaves only the old files when it crashes after the transaction; a re-run removes them', async () => {
    expect((await takeOver('take-over:reowned')).code).toBeNull();
    expect(await imagesOf('boss')).toEqual(['ld/tile.png', 'ld/tile-2.png', 'hd/tile_30x30.png']);
    expect(await filesOf('dora')).toEqual(DORA_FILES);

    expect(await takeOver()).toMatchObject({ code: 0 });
    await expectDone();
  }, 60_000);
});
