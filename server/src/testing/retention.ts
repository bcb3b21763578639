import { DEFAULT_HEIGHT_SETTINGS, PRINT_DEFAULT_SETTINGS } from '@tessera/contract';
import type { FileStore } from '../files/file-store.js';
import { thumbnailName } from '../services/images.js';
import { previewFileName } from '../services/material-maps.js';
import type { Db } from '../store/database.js';
import { createImageRepository } from '../store/images.js';
import { createMaterialMapRepository } from '../store/material-maps.js';
import { createPrintFileRepository } from '../store/print-files.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An HD image of `owner` made at `createdAt`, as the HD job leaves it: its file (`bytes` long)
 * and thumbnail in the store, its row, and the LD image it was made from.
 */
export async function placeHdImage(
  db: Db,
  files: FileStore,
  owner: { id: number; username: string },
  filename: string,
  createdAt: Date,
  bytes = 1000,
): Promise<void> {
  const images = createImageRepository(db);
  const base = { ownerId: owner.id, width: 64, height: 64, createdAt: createdAt.toISOString() };
  const ld = await images.insert({
    ...base,
    kind: 'ld',
    filename: `ld-${filename}`,
    sourceImageId: null,
    bytes: 10,
    metadata: { prompt: 'bricks' },
  });
  await files.write(owner.username, 'ld', ld.filename, Buffer.alloc(10));
  await files.write(owner.username, 'hd', filename, Buffer.alloc(bytes));
  await files.write(owner.username, 'hd-thumbnails', thumbnailName(filename), Buffer.alloc(5));
  await images.insert({
    ...base,
    kind: 'hd',
    filename,
    sourceImageId: ld.id,
    bytes,
    metadata: { size: '60x60', source_image: ld.filename },
  });
}

/**
 * What was made from the owner's HD image `filename`: a normal map (with its preview and the
 * set's colour preview) and a print file, their files in the store and their rows.
 */
export async function placeDerivedFiles(
  db: Db,
  files: FileStore,
  owner: { id: number; username: string },
  filename: string,
  bytes: { map: number; print: number },
): Promise<{ maps: string[]; print: string }> {
  const image = await createImageRepository(db).find(owner.id, 'hd', filename);
  if (!image) throw new Error(`no HD image ${filename}`);
  const stem = filename.replace(/\.[^.]+$/, '');
  const map = { filename: `${stem}_hd_normal.png`, preview: `${stem}_hd_normal.preview.png` };
  const colour = previewFileName('hd', filename, 'colour');
  const print = `${stem}_print.tif`;
  await files.write(owner.username, 'maps', map.filename, Buffer.alloc(bytes.map));
  await files.write(owner.username, 'maps', map.preview, Buffer.alloc(3));
  await files.write(owner.username, 'maps', colour, Buffer.alloc(3));
  await files.write(owner.username, 'print', print, Buffer.alloc(bytes.print));
  await createMaterialMapRepository(db).replace(
    owner.id,
    image.id,
    {
      seamless: false,
      height: DEFAULT_HEIGHT_SETTINGS,
      maps: [
        { map: 'normal-opengl', filename: map.filename, bytes: bytes.map, preview: map.preview },
      ],
    },
    image.createdAt,
  );
  await createPrintFileRepository(db).record({
    ownerId: owner.id,
    imageId: image.id,
    jobId: `print-${stem}`,
    settings: PRINT_DEFAULT_SETTINGS,
    filename: print,
    bytes: bytes.print,
    width: 64,
    height: 64,
    createdAt: image.createdAt,
  });
  return { maps: [map.filename, map.preview, colour], print };
}

/** The owner's user id. */
export async function ownerId(db: Db, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}
