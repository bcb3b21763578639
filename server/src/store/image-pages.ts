import type { LdSort } from '@tessera/contract';
import { sql, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { databaseDialect, type Db } from './database.js';
import { ImageListings, listingKey, type Listing, type PageEnd } from './image-listings.js';
import { preparedShapes } from './prepared.js';
import {
  LISTED_IMAGE_COLUMNS,
  toListedImage,
  type ImageKind,
  type ListedImage,
} from './image-rows.js';
import type { Database } from './schema.js';

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

export interface ImagePage {
  images: ListedImage[];
  total: number;
}

type Filtered = SelectQueryBuilder<Database, 'images', object>;

/** The search's filters by a text value, in the order their values take in a query. */
const TEXT_FILTERS = ['promptKey', 'seedKey', 'from', 'to'] as const;
type TextFilter = (typeof TEXT_FILTERS)[number];

/** A text filter's value, when the search filters by it (an empty prompt key matches all). */
function textOf(search: ImageSearch | undefined, name: TextFilter): string | undefined {
  return name === 'promptKey' ? search?.promptKey || undefined : search?.[name];
}

/** A query's values in a fixed order, and the choices that shape its SQL (`shapeOf`). */
function valuesOf({ ownerId, kind, anyOfTags, search }: ImagePageQuery): unknown[] {
  const texts = TEXT_FILTERS.map((name) => textOf(search, name));
  return [ownerId, kind, ...(anyOfTags ?? []), ...texts.filter((value) => value !== undefined)];
}

function shapeOf({ anyOfTags, search }: ImagePageQuery): string {
  return [
    anyOfTags?.length ?? 0,
    ...TEXT_FILTERS.map((name) => (textOf(search, name) === undefined ? '-' : '+')),
    search?.starredOnly ? 'starred' : 'all',
    search?.sort ?? 'added',
  ].join(' ');
}

/** The query again, with `values` (as `valuesOf` lists them) in place of its own. */
function withValues(query: ImagePageQuery, values: readonly unknown[]): ImagePageQuery {
  let next = 0;
  const take = () => values[next++];
  const ownerId = take() as number;
  const kind = take() as ImageKind;
  const anyOfTags = (query.anyOfTags ?? []).map(() => take() as string);
  const search = query.search && { ...query.search };
  for (const name of TEXT_FILTERS) {
    if (search && textOf(query.search, name) !== undefined) search[name] = take() as string;
  }
  return { ...query, ownerId, kind, anyOfTags, ...(search && { search }) };
}

/**
 * The page query: page N of a listing, exactly the rows LIMIT/OFFSET gives. When the listing's
 * page N-1 was served at the owner's current images_version, page N is read by keyset after
 * its last row and the total is the one counted then: the cost of a page no longer grows with
 * its number, and no page counts the listing again (issue 28, part 2). Otherwise, or if the
 * version moved meanwhile (the keyset query then finds no row), OFFSET and a count, as before.
 * Each statement is compiled once per shape of query (`preparedShapes`): building and compiling
 * it anew cost about as much as SQLite's reading of a page.
 */
export function createImagePager(db: Db): (query: ImagePageQuery) => Promise<ImagePage> {
  const postgres = databaseDialect(db) === 'postgres';
  // By name, upper and lower case together, as migration 0009's index orders: SQLite's NOCASE;
  // on PostgreSQL the name lowered and compared byte by byte.
  const byName = postgres
    ? sql<string>`lower(images.filename) collate "C"`
    : sql<string>`images.filename collate nocase`;
  // Where the prompt key holds the text: a plain substring test, with no wildcards to escape.
  const position = postgres ? 'strpos' : 'instr';
  // The image's tag ids as a JSON array, oldest tag first, read with its row.
  const tagIds = postgres
    ? sql`coalesce(json_agg(image_tags.tag_id order by tags.created_at, tags.id), '[]')::text`
    : sql`json_group_array(image_tags.tag_id order by tags.created_at, tags.id)`;
  const tagList = sql<string>`(select ${tagIds}
      from image_tags join tags on tags.owner_id = image_tags.owner_id and tags.id = image_tags.tag_id
      where image_tags.image_id = images.id)`;
  // Each text filter's condition on the images.
  const textConditions: Record<TextFilter, (base: Filtered, value: string) => Filtered> = {
    promptKey: (base, key) =>
      base.where((eb) => eb(eb.fn(position, ['images.prompt_key', eb.val(key)]), '>', 0)),
    seedKey: (base, key) => base.where('images.seed_key', '=', key),
    from: (base, at) => base.where('images.dated_at', '>=', at),
    to: (base, at) => base.where('images.dated_at', '<', at),
  };
  const listings = new ImageListings();
  const run = preparedShapes(db);

  function filtered({ ownerId, kind, anyOfTags, search }: ImagePageQuery): Filtered {
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
    for (const name of TEXT_FILTERS) {
      const value = textOf(search, name);
      if (value !== undefined) base = textConditions[name](base, value);
    }
    if (search?.starredOnly) base = base.where('images.starred', '=', 1);
    return base;
  }

  /** The listing's order: a sort key, then the id the same way to break its ties. */
  function orderOf(sort: LdSort | undefined): { key: RawBuilder<string>; way: 'asc' | 'desc' } {
    switch (sort) {
      case undefined:
        return { key: sql<string>`images.created_at`, way: 'desc' };
      case 'newest':
        return { key: sql<string>`images.dated_at`, way: 'desc' };
      case 'oldest':
        return { key: sql<string>`images.dated_at`, way: 'asc' };
      case 'name':
        return { key: byName, way: 'asc' };
    }
  }

  const versionOf = (ownerId: number) =>
    sql<number>`(select users.images_version from users where users.id = ${ownerId})`;

  const rowsOf = (query: ImagePageQuery, from: Filtered, size: unknown) => {
    const { key, way } = orderOf(query.search?.sort);
    return from
      .select(LISTED_IMAGE_COLUMNS)
      .select([tagList.as('tag_list'), key.as('sort_key')])
      .orderBy(key, way)
      .orderBy('images.id', way)
      .limit(size as number);
  };

  /** The page after `after` (or the first), if the owner's images are still at `version`. */
  function keysetRows(query: ImagePageQuery, version: number, after: PageEnd | undefined) {
    const extra = after ? [version, after.sortKey, after.id, query.size] : [version, query.size];
    const values = [...valuesOf(query), ...extra];
    const shape = `keyset ${after ? 'after' : 'first'} ${shapeOf(query)}`;
    return run(shape, values, (...marks) => {
      const q = withValues(query, marks);
      const [markVersion, ...rest] = marks.slice(-extra.length);
      const { key, way } = orderOf(query.search?.sort);
      // The version test is part of the statement, so its rows and the version are one reading.
      let from = filtered(q).where(({ exists, selectFrom }) =>
        exists(
          selectFrom('users')
            .select('users.id')
            .where('users.id', '=', q.ownerId)
            .where('users.images_version', '=', markVersion as number),
        ),
      );
      if (after) {
        const [afterKey, afterId] = rest;
        const [strictly, orEqual] =
          way === 'desc' ? (['<', '<='] as const) : (['>', '>='] as const);
        from = from.where((eb: ExpressionBuilder<Database, 'images'>) =>
          eb.and([
            eb(key, orEqual, afterKey as string),
            eb.or([
              eb(key, strictly, afterKey as string),
              eb('images.id', strictly, afterId as number),
            ]),
          ]),
        );
      }
      return rowsOf(q, from, marks[marks.length - 1]);
    });
  }

  function offsetRows(query: ImagePageQuery) {
    const values = [...valuesOf(query), query.size, (query.page - 1) * query.size];
    return run(`offset ${shapeOf(query)}`, values, (...marks) => {
      const q = withValues(query, marks);
      const [size, offset] = marks.slice(-2);
      return rowsOf(q, filtered(q), size)
        .select(versionOf(q.ownerId).as('list_version'))
        .offset(offset as number);
    });
  }

  async function counted(query: ImagePageQuery) {
    const [count] = await run(`count ${shapeOf(query)}`, valuesOf(query), (...marks) => {
      const q = withValues(query, marks);
      return filtered(q).select((eb) => [
        eb.fn.countAll<number>().as('n'),
        versionOf(q.ownerId).as('list_version'),
      ]);
    });
    if (!count) throw new Error('a count query returned no row');
    return count;
  }

  return async function page(query) {
    const { page, size } = query;
    const id = listingKey(query);

    const known = listings.get(id);
    const after = page > 1 ? known?.ends.get(page - 1) : undefined;
    const expected = known ? Math.min(size, known.total - (page - 1) * size) : 0;
    if (known && (page === 1 || after) && expected > 0) {
      const rows = await keysetRows(query, known.version, after);
      // Fewer rows than the total promised: the version moved; read the page as below.
      if (rows.length === expected) {
        remember(known, page, rows);
        return { images: rows.map(toListedImage), total: known.total };
      }
    }

    const rows = await offsetRows(query);
    // A short page is the last: it tells the total itself, with no second pass over the rows (a
    // search that finds nothing read every row twice).
    const short = rows.length < size && (rows.length > 0 || page === 1);
    const count = short
      ? { n: (page - 1) * size + rows.length, list_version: rows[0]?.list_version ?? null }
      : await counted(query);
    const total = Number(count.n);
    // Kept only when the rows and the count were read at the same version.
    const version = count.list_version;
    if (version !== null && rows.every((row) => row.list_version === version))
      remember(listings.remember(id, Number(version), total), page, rows);
    return { images: rows.map(toListedImage), total };
  };
}

function remember(listing: Listing, page: number, rows: { sort_key: string; id: number }[]) {
  const last = rows[rows.length - 1];
  ImageListings.recordEnd(listing, page, last && { sortKey: last.sort_key, id: last.id });
}
