import type { FileStore } from '../files/file-store.js';
import { thumbnailName } from '../services/images.js';
import type { Db } from '../store/database.js';
import { createImageRepository } from '../store/images.js';

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

/** The owner's user id. */
export async function ownerId(db: Db, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}
