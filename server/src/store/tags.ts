import { sql } from 'kysely';
import type { Db } from './database.js';
import { preparedQuery } from './prepared.js';
import { TagPageCache, type TagPage } from './tag-pages.js';

export interface TagRecord {
  id: string;
  name: string;
  color: string;
}

/** The tags table: one method per query. */
export interface TagRepository {
  /** A page in creation order and the count of all; the same object may answer many calls. */
  page(ownerId: number, page: number, size: number): Promise<TagPage<TagRecord>>;
  find(ownerId: number, id: string): Promise<TagRecord | undefined>;
  findByName(ownerId: number, name: string): Promise<TagRecord | undefined>;
  /**
   * Adds the tag; with a `cap`, only while the owner has fewer tags than that (false, nothing
   * written, otherwise). The count is taken after the insert in the same transaction: on SQLite,
   * one writer at a time, the cap holds exactly; on PostgreSQL two creates running at the same
   * instant do not see each other's row, so each may pass it by one.
   */
  insert(ownerId: number, tag: TagRecord, cap?: number): Promise<boolean>;
  update(ownerId: number, tag: TagRecord): Promise<boolean>;
  /** Removes the tag after unassigning it from every image, in one transaction. */
  remove(ownerId: number, id: string): Promise<boolean>;
}

/** Rolls back an insert that took the owner past their cap. */
class OverCap extends Error {}

export function createTagRepository(db: Db): TagRepository {
  const columns = ['id', 'name', 'color'] as const;
  const count = preparedQuery(db, 1, (ownerId: number) =>
    db
      .selectFrom('tags')
      .where('owner_id', '=', ownerId)
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  // One row past the page: when it is not there, the page ends the owner's tags and gives the
  // count, with no second statement. list-tag runs on every tags panel, most owners' tags fit on
  // its first page, and each statement costs a command more than its SQL (docs/architecture.md).
  const pagePlusOne = preparedQuery(db, 3, (ownerId: number, limit: number, offset: number) =>
    db
      .selectFrom('tags')
      .where('owner_id', '=', ownerId)
      .select(columns)
      // Creation order; seq breaks ties within the same millisecond.
      .orderBy('created_at')
      .orderBy('seq')
      .limit(limit)
      .offset(offset),
  );
  const versionOf = preparedQuery(db, 1, (ownerId: number) =>
    db.selectFrom('users').where('id', '=', ownerId).select('tags_version'),
  );
  const kept = new TagPageCache<TagRecord>();
  async function read(ownerId: number, page: number, size: number): Promise<TagPage<TagRecord>> {
    const offset = (page - 1) * size;
    const rows = await pagePlusOne(ownerId, size + 1, offset);
    // More beyond this page, or a page past the end (no row tells where the tags end): count.
    const ends = rows.length <= size && (rows.length > 0 || offset === 0);
    const total = ends ? offset + rows.length : Number((await count(ownerId))[0]?.n ?? 0);
    return {
      tags: rows.slice(0, size).map(({ id, name, color }) => ({ id, name, color })),
      total,
    };
  }
  return {
    async page(ownerId, page, size) {
      // The version first: see TagPageCache.
      const version = (await versionOf(ownerId))[0]?.tags_version;
      if (version === undefined) return read(ownerId, page, size);
      const hit = kept.get(ownerId, page, size, version);
      if (hit) return hit;
      return kept.set(ownerId, page, size, version, await read(ownerId, page, size));
    },
    find(ownerId, id) {
      return db
        .selectFrom('tags')
        .select(columns)
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findByName(ownerId, name) {
      return db
        .selectFrom('tags')
        .select(columns)
        .where('owner_id', '=', ownerId)
        .where('name', '=', name)
        .executeTakeFirst();
    },
    insert(ownerId, tag, cap = Number.POSITIVE_INFINITY) {
      const written = db.transaction().execute(async (trx) => {
        await trx
          .insertInto('tags')
          .values({
            owner_id: ownerId,
            ...tag,
            created_at: new Date().toISOString(),
            // The owner's next number. Two of one owner's tags made at the very same moment on
            // PostgreSQL may share it; then either order is true.
            seq: sql<number>`(select coalesce(max(t.seq), 0) + 1 from tags t where t.owner_id = ${ownerId})`,
          })
          .execute();
        if (cap === Number.POSITIVE_INFINITY) return true;
        const count = await trx
          .selectFrom('tags')
          .where('owner_id', '=', ownerId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        // Over the cap: throwing rolls the row back.
        if (Number(count.n) > cap) throw new OverCap();
        return true;
      });
      return written.catch((err: unknown) => {
        if (err instanceof OverCap) return false;
        throw err;
      });
    },
    async update(ownerId, tag) {
      const result = await db
        .updateTable('tags')
        .set({ name: tag.name, color: tag.color })
        .where('owner_id', '=', ownerId)
        .where('id', '=', tag.id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    remove(ownerId, id) {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('image_tags')
          .where('owner_id', '=', ownerId)
          .where('tag_id', '=', id)
          .execute();
        const result = await trx
          .deleteFrom('tags')
          .where('owner_id', '=', ownerId)
          .where('id', '=', id)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },
  };
}
