import { SelectQueryNode, type KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import type { Db } from './database.js';
import { createImageRepository, type ImagePageQuery, type ImageRepository } from './images.js';
import { createTagRepository } from './tags.js';

// Pages read by keyset after the previous page's end (image-pages.ts) are exactly the pages
// LIMIT/OFFSET reads, also when images, tags and stars change between two pages, whoever changes
// them. The reference is a repository that has served nothing yet: it reads by OFFSET.

let store: TestDatabase;
let ann: number;
let bob: number;
/** Queries that skipped rows by OFFSET, counted by the plugin below. */
let offsetReads = 0;
/** The repository under test, on a Kysely that counts its OFFSET reads. */
let pager: ImageRepository;

const countOffsets: KyselyPlugin = {
  transformQuery({ node }) {
    if (SelectQueryNode.is(node) && node.offset) offsetReads++;
    return node;
  },
  transformResult: ({ result }) => Promise.resolve(result),
};

const SIZE = 4;
const IMAGES = 30;

beforeEach(async () => {
  store = await freshDatabase();
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
  await seed(store.db);
  pager = createImageRepository(store.db.withPlugin(countOffsets));
  offsetReads = 0;
});
afterEach(() => store.close());

/** Three images per timestamp (ties the id breaks), names that differ only in case, tags, stars. */
async function seed(db: Db): Promise<void> {
  const tags = createTagRepository(db);
  for (const id of ['red', 'blue']) await tags.insert(ann, { id, name: id, color: '#ff0000' });
  const images = createImageRepository(db);
  for (let i = 0; i < IMAGES; i++) {
    const createdAt = new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 3))).toISOString();
    const filename = `${i % 2 === 0 ? 'Tile' : 'tile'}_${String(Math.floor(i / 2)).padStart(2, '0')}.png`;
    const metadata = { cliptextencode_585: i % 4 === 0 ? 'red stone' : 'oak planks', seed: i % 3 };
    const image = await images.insert({
      ownerId: ann,
      kind: 'ld',
      filename,
      sourceImageId: null,
      width: 64,
      height: 64,
      bytes: 10,
      metadata,
      createdAt,
    });
    if (i % 3 === 0) await images.assignTag(ann, image.id, 'red');
    if (i % 5 === 0) await images.assignTag(ann, image.id, 'blue');
    if (i % 4 === 1) await images.setStarred(ann, image.id, true);
  }
}

const LISTINGS: Omit<ImagePageQuery, 'page' | 'ownerId'>[] = [
  { kind: 'ld', size: SIZE },
  { kind: 'ld', size: SIZE, anyOfTags: ['red', 'blue'] },
  { kind: 'ld', size: SIZE, search: { sort: 'newest' } },
  { kind: 'ld', size: SIZE, search: { sort: 'oldest' } },
  { kind: 'ld', size: SIZE, search: { sort: 'name' } },
  { kind: 'ld', size: SIZE, search: { promptKey: 'oak', sort: 'name' } },
  { kind: 'ld', size: SIZE, search: { starredOnly: true, sort: 'oldest' } },
  { kind: 'ld', size: SIZE, search: { seedKey: '1', sort: 'newest' } },
];

/** Page `page` as LIMIT/OFFSET reads it now: filenames and total. */
async function reference(listing: (typeof LISTINGS)[number], page: number) {
  return shape(await createImageRepository(store.db).page({ ...listing, ownerId: ann, page }));
}

function shape(result: { images: { filename: string }[]; total: number }) {
  return { names: result.images.map((i) => i.filename), total: result.total };
}

describe('image pages read by keyset', () => {
  it('are the OFFSET pages, page after page, for every order and filter; OFFSET read once', async () => {
    for (const listing of LISTINGS) {
      offsetReads = 0;
      let pages = 0;
      for (let page = 1; ; page++) {
        const got = shape(await pager.page({ ...listing, ownerId: ann, page }));
        expect(got, JSON.stringify({ listing, page })).toEqual(await reference(listing, page));
        pages++;
        if (got.names.length < SIZE) break;
      }
      expect(pages, JSON.stringify(listing)).toBeGreaterThan(1);
      // The first page's OFFSET 0 and the page past the end (no total promises it any row).
      expect(offsetReads, JSON.stringify(listing)).toBeLessThanOrEqual(2);
      // Paged again: every page by keyset now, the total remembered.
      offsetReads = 0;
      for (let page = 1; page <= pages - 1; page++)
        await pager.page({ ...listing, ownerId: ann, page });
      expect(offsetReads, JSON.stringify(listing)).toBe(0);
    }
  });

  it('stay the OFFSET pages while images, tags and stars change between pages', async () => {
    // Each change made elsewhere (another repository, as another server would), or by cascade.
    const other = createImageRepository(store.db);
    const tags = createTagRepository(store.db);
    /** The id of ann's n-th image, newest first, whatever has been deleted so far. */
    const nth = async (n: number) => {
      const { images } = await other.page({ ownerId: ann, kind: 'ld', page: 1, size: 1000 });
      return images[n]?.id ?? 0;
    };
    let added = 0;
    const changes: (() => Promise<unknown>)[] = [
      () =>
        other.insert({
          ownerId: ann,
          kind: 'ld',
          filename: `new_${added++}.png`,
          sourceImageId: null,
          width: 64,
          height: 64,
          bytes: 10,
          metadata: { cliptextencode_585: 'oak' },
          createdAt: '2027-01-01T00:00:00.000Z',
        }),
      async () => other.remove(ann, [await nth(0)]),
      async () => other.assignTag(ann, await nth(14), 'red'),
      async () => other.unassignTag(ann, await nth(3), 'red'),
      async () => other.setStarred(ann, await nth(12), true),
      async () => other.setStarred(ann, await nth(1), false),
      () => tags.remove(ann, 'blue'),
      // Another owner's images change nothing of ann's pages.
      () =>
        other.insert({
          ownerId: bob,
          kind: 'ld',
          filename: `bob_${added++}.png`,
          sourceImageId: null,
          width: 1,
          height: 1,
          bytes: 1,
          metadata: {},
          createdAt: '2027-01-01T00:00:00.000Z',
        }),
      async () => other.remove(ann, [await nth(5), await nth(9)]),
    ];
    for (const listing of LISTINGS) {
      for (const change of changes) {
        // Two pages to learn the listing, a change, then the rest of the pages.
        for (const page of [1, 2])
          expect(shape(await pager.page({ ...listing, ownerId: ann, page }))).toEqual(
            await reference(listing, page),
          );
        await change();
        for (let page = 3; page < 12; page++) {
          const got = shape(await pager.page({ ...listing, ownerId: ann, page }));
          expect(got, JSON.stringify({ listing, page })).toEqual(await reference(listing, page));
          if (got.names.length < SIZE) break;
        }
      }
    }
  });
});
