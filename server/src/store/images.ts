import { imageSearchKeys } from '@tessera/contract';
import type { Db } from './database.js';
import { createImagePager, type ImagePage, type ImagePageQuery } from './image-pages.js';
import {
  IMAGE_COLUMNS as COLUMNS,
  parseMetadata,
  toImageRecord as toRecord,
  type ImageKind,
  type ImageRecord,
} from './image-rows.js';

export type { ImageKind, ImageRecord } from './image-rows.js';
export type { ImagePageQuery, ImageSearch } from './image-pages.js';

export type NewImage = Omit<ImageRecord, 'id' | 'starred' | 'hdRemovedAt'>;

/** The images and image_tags tables: one method per query. */
export interface ImageRepository {
  /** Exactly LIMIT/OFFSET's rows; read by keyset when it can (image-pages.ts). */
  page(query: ImagePageQuery): Promise<ImagePage>;
  find(ownerId: number, kind: ImageKind, filename: string): Promise<ImageRecord | undefined>;
  /**
   * The images whose files the store holds, by name: not an HD the retention policy removed (or
   * is removing); those rows are `removedHdFilenames`.
   */
  filenames(ownerId: number, kind: ImageKind): Promise<Map<string, number>>;
  /** The owner's HD images whose files the retention policy removed or is removing. */
  removedHdFilenames(ownerId: number): Promise<string[]>;
  /** The owner's LD images with the reference each was made from, newest first. */
  references(ownerId: number): Promise<{ filename: string; reference: string }[]>;
  insert(image: NewImage): Promise<ImageRecord>;
  /**
   * An HD image whose file the retention policy removed, made again (ordered again): its row
   * takes the new file's values and is an ordinary HD image again. Undefined when no such row.
   */
  restoreRemovedHd(image: NewImage): Promise<ImageRecord | undefined>;
  /** Deletes the rows (their tag links go with them); false when none was there. */
  remove(ownerId: number, ids: readonly number[]): Promise<number>;
  assignTag(ownerId: number, imageId: number, tagId: string): Promise<void>;
  unassignTag(ownerId: number, imageId: number, tagId: string): Promise<void>;
  setStarred(ownerId: number, imageId: number, starred: boolean): Promise<void>;
}

export function createImageRepository(db: Db): ImageRepository {
  const page = createImagePager(db);
  return {
    page,
    async find(ownerId, kind, filename) {
      const row = await db
        .selectFrom('images')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('filename', '=', filename)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async filenames(ownerId, kind) {
      const rows = await db
        .selectFrom('images')
        .select(['id', 'filename'])
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('hd_removal', 'is', null)
        .execute();
      return new Map(rows.map((r) => [r.filename, r.id]));
    },
    async removedHdFilenames(ownerId) {
      const rows = await db
        .selectFrom('images')
        .select('filename')
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'hd')
        .where('hd_removal', 'is not', null)
        .execute();
      return rows.map((r) => r.filename);
    },
    async references(ownerId) {
      const rows = await db
        .selectFrom('images')
        // The metadata read here, as everywhere, rather than by each database's JSON functions.
        .select(['filename', 'metadata'])
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'ld')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.flatMap((r) => {
        const reference = parseMetadata(r.metadata).input_image_path;
        return typeof reference === 'string' ? [{ filename: r.filename, reference }] : [];
      });
    },
    async insert(image) {
      const row = await db
        .insertInto('images')
        .values({
          owner_id: image.ownerId,
          kind: image.kind,
          filename: image.filename,
          ...fileValues(image),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async restoreRemovedHd(image) {
      const row = await db
        .updateTable('images')
        .set({
          ...fileValues(image),
          hd_removed_at: null,
          hd_removal: null,
        })
        .where('owner_id', '=', image.ownerId)
        .where('kind', '=', 'hd')
        .where('filename', '=', image.filename)
        .where('hd_removal', '=', 'done')
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async remove(ownerId, ids) {
      if (ids.length === 0) return 0;
      const result = await db
        .deleteFrom('images')
        .where('owner_id', '=', ownerId)
        .where('id', 'in', [...ids])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async assignTag(ownerId, imageId, tagId) {
      await db
        .insertInto('image_tags')
        .values({ image_id: imageId, owner_id: ownerId, tag_id: tagId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async unassignTag(ownerId, imageId, tagId) {
      await db
        .deleteFrom('image_tags')
        .where('owner_id', '=', ownerId)
        .where('image_id', '=', imageId)
        .where('tag_id', '=', tagId)
        .execute();
    },
    async setStarred(ownerId, imageId, starred) {
      await db
        .updateTable('images')
        .set({ starred: starred ? 1 : 0 })
        .where('owner_id', '=', ownerId)
        .where('id', '=', imageId)
        .execute();
    },
  };
}

/** The columns an image's file and metadata give, for a new row and for a remade HD alike. */
function fileValues(image: NewImage) {
  const keys = imageSearchKeys(image.metadata, image.createdAt);
  return {
    source_image_id: image.sourceImageId,
    width: image.width,
    height: image.height,
    bytes: image.bytes,
    metadata: JSON.stringify(image.metadata),
    created_at: image.createdAt,
    prompt_key: keys.prompt,
    seed_key: keys.seed,
    dated_at: keys.datedAt,
  };
}
