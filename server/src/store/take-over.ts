import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database.js';

/** A retired user's rows that name files, as a take-over moves them (issue 29, part 2). */
export interface Holdings {
  images: { id: number; kind: 'ld' | 'hd'; filename: string; metadata: string }[];
  maps: { id: number; imageId: number; filename: string; preview: string }[];
  prints: { id: number; imageId: number; filename: string }[];
  references: { seq: number; filename: string }[];
}

/** The names an owner's rows use, per place: a moved row must not take one. */
export interface TakenNames {
  ld: Set<string>;
  hd: Set<string>;
  /** Material maps and their previews. */
  maps: Set<string>;
  print: Set<string>;
  input: Set<string>;
}

/** The moved rows' new values; a row not listed keeps its own. */
export interface Reownership {
  from: number;
  to: number;
  images: { id: number; filename: string; metadata: string }[];
  maps: { id: number; filename: string; preview: string }[];
  prints: { id: number; filename: string }[];
  /** A reference whose name the new owner holds with the same file is dropped (`null`). */
  references: { seq: number; filename: string | null }[];
}

export interface TakeOverRepository {
  holdings(ownerId: number): Promise<Holdings>;
  takenNames(ownerId: number): Promise<TakenNames>;
  /**
   * Every row of the plan, and the tags, to the new owner, and the emptied account removed (its
   * jobs and sessions go with it): one transaction, all or nothing.
   */
  reown(plan: Reownership): Promise<void>;
}

export function createTakeOverRepository(db: Db): TakeOverRepository {
  return {
    async holdings(ownerId) {
      const [images, maps, prints, references] = await Promise.all([
        db
          .selectFrom('images')
          .select(['id', 'kind', 'filename', 'metadata'])
          .where('owner_id', '=', ownerId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('material_maps')
          .select(['id', 'image_id', 'filename', 'preview_filename'])
          .where('owner_id', '=', ownerId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('print_files')
          .select(['id', 'image_id', 'filename'])
          .where('owner_id', '=', ownerId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('input_references')
          .select(['seq', 'filename'])
          .where('owner_id', '=', ownerId)
          .orderBy('seq')
          .execute(),
      ]);
      return {
        images,
        maps: maps.map((m) => ({
          id: m.id,
          imageId: m.image_id,
          filename: m.filename,
          preview: m.preview_filename,
        })),
        prints: prints.map((p) => ({ id: p.id, imageId: p.image_id, filename: p.filename })),
        references,
      };
    },

    async takenNames(ownerId) {
      const { images, maps, prints, references } = await this.holdings(ownerId);
      return {
        ld: new Set(images.filter((i) => i.kind === 'ld').map((i) => i.filename)),
        hd: new Set(images.filter((i) => i.kind === 'hd').map((i) => i.filename)),
        maps: new Set(maps.flatMap((m) => [m.filename, m.preview])),
        print: new Set(prints.map((p) => p.filename)),
        input: new Set(references.map((r) => r.filename)),
      };
    },

    async reown({ from, to, images, maps, prints, references }) {
      await db.transaction().execute(async (tx) => {
        for (const image of images) {
          await tx
            .updateTable('images')
            .set({ owner_id: to, filename: image.filename, metadata: image.metadata })
            .where('id', '=', image.id)
            .where('owner_id', '=', from)
            .execute();
        }
        await moveTags(tx, from, to);
        for (const map of maps) {
          await tx
            .updateTable('material_maps')
            .set({ owner_id: to, filename: map.filename, preview_filename: map.preview })
            .where('id', '=', map.id)
            .execute();
        }
        for (const print of prints) {
          await tx
            .updateTable('print_files')
            .set({ owner_id: to, filename: print.filename })
            .where('id', '=', print.id)
            .execute();
        }
        for (const reference of references) {
          if (reference.filename === null) {
            await tx.deleteFrom('input_references').where('seq', '=', reference.seq).execute();
            continue;
          }
          await tx
            .updateTable('input_references')
            .set({ owner_id: to, filename: reference.filename })
            .where('seq', '=', reference.seq)
            .execute();
        }
        await tx.deleteFrom('users').where('id', '=', from).execute();
      });
    },
  };
}

/**
 * The old owner's tags to the new one, after the images: a tag whose name the new owner has
 * already merges into theirs; any other moves, keeping its id unless theirs has it. First every
 * old tag takes a passing id, so no link of an image ever meets another on the way.
 */
async function moveTags(tx: Db, from: number, to: number): Promise<void> {
  const tagsOf = (owner: number) =>
    tx
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('owner_id', '=', owner)
      .orderBy('seq')
      .execute();
  const [mine, theirs] = [await tagsOf(from), await tagsOf(to)];
  const byName = new Map(theirs.map((tag) => [tag.name, tag.id]));
  const ids = new Set(theirs.map((tag) => tag.id));
  // The links follow each change of a tag's key by the foreign key's ON UPDATE CASCADE (0002).
  const rekey = (id: string, owner: number, next: string) =>
    tx
      .updateTable('tags')
      .set({
        owner_id: owner,
        id: next,
        seq: sql<number>`(select coalesce(max(t.seq), 0) + 1 from tags t where t.owner_id = ${owner})`,
      })
      .where('owner_id', '=', from)
      .where('id', '=', id)
      .execute();
  const passing = new Map<string, string>();
  for (const tag of mine) {
    passing.set(tag.id, randomUUID());
    await rekey(tag.id, from, passing.get(tag.id) ?? '');
  }
  for (const tag of mine) {
    const id = passing.get(tag.id) ?? '';
    const same = byName.get(tag.name);
    if (same === undefined) {
      const next = ids.has(tag.id) ? randomUUID() : tag.id;
      ids.add(next);
      await rekey(id, to, next);
      continue;
    }
    await tx
      .updateTable('image_tags')
      .set({ owner_id: to, tag_id: same })
      .where('owner_id', '=', from)
      .where('tag_id', '=', id)
      .execute();
    await tx.deleteFrom('tags').where('owner_id', '=', from).where('id', '=', id).execute();
  }
}
