import { imageSearchKeys, type LdSort } from '@tessera/contract';
import { sql, type Selectable } from 'kysely';
import { databaseDialect, type Db } from './database.js';
import type { ImagesTable } from './schema.js';

export type ImageKind = ImagesTable['kind'];

export interface ImageRecord {
  id: number;
  ownerId: number;
  kind: ImageKind;
  filename: string;
  sourceImageId: number | null;
  width: number;
  height: number;
  bytes: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  starred: boolean;
}

export type NewImage = Omit<ImageRecord, 'id' | 'starred'>;

/** A search in the terms of the columns of migration 0009: keys already folded as stored. */
export interface ImageSearch {
  /** Part of the folded positive prompt; empty or missing matches all. */
  promptKey?: string;
  seedKey?: string;
  /** Dated at or after (ISO text). */
  from?: string;
  /** Dated before (ISO text). */
  to?: string;
  starredOnly?: boolean;
  sort: LdSort;
}

export interface ImagePageQuery {
  ownerId: number;
  kind: ImageKind;
  page: number;
  size: number;
  /** Keep images that carry any of these tags; empty or missing keeps all. */
  anyOfTags?: readonly string[];
  /** Missing: every image, newest added first (SPEC §7's list, as it always was). */
  search?: ImageSearch;
}

/** The images and image_tags tables: one method per query. */
export interface ImageRepository {
  page(query: ImagePageQuery): Promise<{ images: ImageRecord[]; total: number }>;
  /** Tag ids per image id, for the images of one page. */
  tagsOf(imageIds: readonly number[]): Promise<Map<number, string[]>>;
  find(ownerId: number, kind: ImageKind, filename: string): Promise<ImageRecord | undefined>;
  filenames(ownerId: number, kind: ImageKind): Promise<Map<string, number>>;
  /** The owner's LD images with the reference each was made from, newest first. */
  references(ownerId: number): Promise<{ filename: string; reference: string }[]>;
  insert(image: NewImage): Promise<ImageRecord>;
  /** Deletes the rows (their tag links go with them); false when none was there. */
  remove(ownerId: number, ids: readonly number[]): Promise<number>;
  assignTag(ownerId: number, imageId: number, tagId: string): Promise<void>;
  unassignTag(ownerId: number, imageId: number, tagId: string): Promise<void>;
  setStarred(ownerId: number, imageId: number, starred: boolean): Promise<void>;
}

type Row = Omit<Selectable<ImagesTable>, 'prompt_key' | 'seed_key' | 'dated_at'>;

const COLUMNS = [
  'images.id',
  'images.owner_id',
  'images.kind',
  'images.filename',
  'images.source_image_id',
  'images.width',
  'images.height',
  'images.bytes',
  'images.metadata',
  'images.created_at',
  'images.starred',
] as const;

function toRecord(row: Row): ImageRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    kind: row.kind,
    filename: row.filename,
    sourceImageId: row.source_image_id,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    metadata: parseMetadata(row.metadata),
    createdAt: row.created_at,
    starred: row.starred === 1,
  };
}

function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function createImageRepository(db: Db): ImageRepository {
  const postgres = databaseDialect(db) === 'postgres';
  // By name, upper and lower case together, as migration 0009's index orders: SQLite's NOCASE;
  // on PostgreSQL the name lowered and compared byte by byte.
  const byName = postgres
    ? sql`lower(images.filename) collate "C"`
    : sql`images.filename collate nocase`;
  // Where the prompt key holds the text: a plain substring test, with no wildcards to escape.
  const position = postgres ? 'strpos' : 'instr';
  return {
    async page({ ownerId, kind, page, size, anyOfTags, search }) {
      let base = db
        .selectFrom('images')
        .where('images.owner_id', '=', ownerId)
        .where('images.kind', '=', kind);
      if (anyOfTags && anyOfTags.length > 0) {
        const tags = [...anyOfTags];
        base = base.where((eb) =>
          eb.exists(
            eb
              .selectFrom('image_tags')
              .select('image_tags.image_id')
              .whereRef('image_tags.image_id', '=', 'images.id')
              .where('image_tags.owner_id', '=', ownerId)
              .where('image_tags.tag_id', 'in', tags),
          ),
        );
      }
      if (search?.promptKey) {
        // instr (strpos), not LIKE: the user's text is matched as it is, no wildcards to escape.
        const key = search.promptKey;
        base = base.where((eb) => eb(eb.fn(position, ['images.prompt_key', eb.val(key)]), '>', 0));
      }
      if (search?.seedKey !== undefined) base = base.where('images.seed_key', '=', search.seedKey);
      if (search?.from !== undefined) base = base.where('images.dated_at', '>=', search.from);
      if (search?.to !== undefined) base = base.where('images.dated_at', '<', search.to);
      if (search?.starredOnly) base = base.where('images.starred', '=', 1);

      let rows = base.select(COLUMNS);
      switch (search?.sort) {
        case undefined:
          rows = rows.orderBy('images.created_at', 'desc').orderBy('images.id', 'desc');
          break;
        case 'newest':
          rows = rows.orderBy('images.dated_at', 'desc').orderBy('images.id', 'desc');
          break;
        case 'oldest':
          rows = rows.orderBy('images.dated_at', 'asc').orderBy('images.id', 'asc');
          break;
        case 'name':
          rows = rows.orderBy(byName).orderBy('images.id', 'asc');
          break;
      }
      const [found, count] = await Promise.all([
        rows
          .limit(size)
          .offset((page - 1) * size)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { images: found.map(toRecord), total: Number(count.n) };
    },
    async tagsOf(imageIds) {
      const result = new Map<number, string[]>();
      if (imageIds.length === 0) return result;
      const rows = await db
        .selectFrom('image_tags')
        .innerJoin('tags', (join) =>
          join
            .onRef('tags.owner_id', '=', 'image_tags.owner_id')
            .onRef('tags.id', '=', 'image_tags.tag_id'),
        )
        .select(['image_tags.image_id', 'image_tags.tag_id'])
        .where('image_tags.image_id', 'in', [...imageIds])
        .orderBy('tags.created_at')
        .execute();
      for (const row of rows) {
        const list = result.get(row.image_id) ?? [];
        list.push(row.tag_id);
        result.set(row.image_id, list);
      }
      return result;
    },
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
        .execute();
      return new Map(rows.map((r) => [r.filename, r.id]));
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
      const keys = imageSearchKeys(image.metadata, image.createdAt);
      const row = await db
        .insertInto('images')
        .values({
          owner_id: image.ownerId,
          kind: image.kind,
          filename: image.filename,
          source_image_id: image.sourceImageId,
          width: image.width,
          height: image.height,
          bytes: image.bytes,
          metadata: JSON.stringify(image.metadata),
          created_at: image.createdAt,
          prompt_key: keys.prompt,
          seed_key: keys.seed,
          dated_at: keys.datedAt,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(row);
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
