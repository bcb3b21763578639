import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import {
  createImageRepository,
  type ImageRepository,
  type ImageSearch,
  type NewImage,
} from './images.js';
import { createTagRepository, type TagRepository } from './tags.js';

// The images and image_tags tables on a real database (the integration tier: npm run test:int).
// image-search.int.test.ts adds what is SQLite's own: the migration of old rows, the query plans.

let store: TestDatabase;
let images: ImageRepository;
let tags: TagRepository;
let ann: number;
let bob: number;

beforeEach(async () => {
  store = await freshDatabase();
  images = createImageRepository(store.db);
  tags = createTagRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
  day = 0;
});
afterEach(() => store.close());

function newImage(fields: Partial<NewImage> & Pick<NewImage, 'ownerId' | 'filename'>): NewImage {
  return {
    kind: 'ld',
    sourceImageId: null,
    width: 1024,
    height: 1024,
    bytes: 500,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

let day = 0;
/** Adds an LD image a day after the one added before (the last added is the newest); its id. */
async function add(ownerId: number, filename: string, metadata = {}): Promise<number> {
  day++;
  const createdAt = new Date(Date.UTC(2026, 0, day)).toISOString();
  return (await images.insert(newImage({ ownerId, filename, createdAt, metadata }))).id;
}

const names = (page: { images: { filename: string }[] }) => page.images.map((i) => i.filename);

/** The tags of each of the owner's LD images, by id, as a list page reads them. */
async function tagsOf(ownerId: number): Promise<Map<number, string[]>> {
  const page = await images.page({ ownerId, kind: 'ld', page: 1, size: 100 });
  return new Map(page.images.map((image) => [image.id, image.tags]));
}

describe('images: rows', () => {
  it('gives back what was inserted, not starred, found by owner, kind and name only', async () => {
    const metadata = { cliptextencode_585: 'red brick', seed: 7, nested: { a: [1, 2] } };
    const inserted = await images.insert(
      newImage({ ownerId: ann, filename: 'tile.png', metadata }),
    );
    expect(inserted).toEqual({
      ...newImage({ ownerId: ann, filename: 'tile.png', metadata }),
      id: inserted.id,
      starred: false,
      hdRemovedAt: null,
    });
    expect(await images.find(ann, 'ld', 'tile.png')).toEqual(inserted);
    expect(await images.find(ann, 'hd', 'tile.png')).toBeUndefined();
    expect(await images.find(bob, 'ld', 'tile.png')).toBeUndefined();
  });

  it("refuses a second image of the same owner, kind and name; another owner's is fine", async () => {
    await images.insert(newImage({ ownerId: ann, filename: 'tile.png' }));
    await expect(images.insert(newImage({ ownerId: ann, filename: 'tile.png' }))).rejects.toThrow();
    await images.insert(newImage({ ownerId: ann, filename: 'tile.png', kind: 'hd' }));
    await images.insert(newImage({ ownerId: bob, filename: 'tile.png' }));
    expect(await images.filenames(ann, 'ld')).toEqual(new Map([['tile.png', expect.any(Number)]]));
  });

  it('refuses an HD image whose LD source is gone (deleted while the HD job ran)', async () => {
    const source = await images.insert(newImage({ ownerId: ann, filename: 'tile.png' }));
    await images.remove(ann, [source.id]);
    await expect(
      images.insert(
        newImage({
          ownerId: ann,
          kind: 'hd',
          filename: 'tile_60x60.png',
          sourceImageId: source.id,
        }),
      ),
    ).rejects.toThrow();
    expect(await images.filenames(ann, 'hd')).toEqual(new Map());
  });

  it('keeps an HD image when its LD source is deleted later, without the link', async () => {
    const source = await images.insert(newImage({ ownerId: ann, filename: 'tile.png' }));
    await images.insert(
      newImage({ ownerId: ann, kind: 'hd', filename: 'tile_60x60.png', sourceImageId: source.id }),
    );
    await images.remove(ann, [source.id]);
    expect(await images.find(ann, 'hd', 'tile_60x60.png')).toMatchObject({ sourceImageId: null });
  });

  it("removes only the owner's rows, with their tag links, and counts them", async () => {
    const a = await add(ann, 'a.png');
    const b = await add(ann, 'b.png');
    const theirs = await add(bob, 'c.png');
    await tags.insert(ann, { id: 't', name: 'T', color: '#000000' });
    await images.assignTag(ann, a, 't');
    expect(await images.remove(ann, [a, theirs])).toBe(1);
    expect(await images.remove(ann, [])).toBe(0);
    expect(await images.filenames(ann, 'ld')).toEqual(new Map([['b.png', b]]));
    expect(await images.filenames(bob, 'ld')).toEqual(new Map([['c.png', theirs]]));
    const links = await store.db.selectFrom('image_tags').select('image_id').execute();
    expect(links).toEqual([]);
  });

  it("stars and unstars the owner's image only", async () => {
    const tile = await add(ann, 'tile.png');
    await images.setStarred(bob, tile, true);
    expect(await images.find(ann, 'ld', 'tile.png')).toMatchObject({ starred: false });
    await images.setStarred(ann, tile, true);
    expect(await images.find(ann, 'ld', 'tile.png')).toMatchObject({ starred: true });
    await images.setStarred(ann, tile, false);
    expect(await images.find(ann, 'ld', 'tile.png')).toMatchObject({ starred: false });
  });

  it('lists the references of LD images that name one, newest first', async () => {
    await add(ann, 'plain.png');
    await add(ann, 'first.png', { input_image_path: 'bricks.png' });
    await images.insert(
      newImage({
        ownerId: ann,
        filename: 'second.png',
        createdAt: '2026-03-01T00:00:00.000Z',
        metadata: { input_image_path: 'stones.png' },
      }),
    );
    await images.insert(
      newImage({
        ownerId: ann,
        kind: 'hd',
        filename: 'big.png',
        metadata: { input_image_path: 'hd.png' },
      }),
    );
    expect(await images.references(ann)).toEqual([
      { filename: 'second.png', reference: 'stones.png' },
      { filename: 'first.png', reference: 'bricks.png' },
    ]);
    expect(await images.references(bob)).toEqual([]);
  });
});

describe('images: tag links', () => {
  it('links tags once each, lists them per image in tag creation order, and unlinks', async () => {
    const a = await add(ann, 'a.png');
    const b = await add(ann, 'b.png');
    await tags.insert(ann, { id: 'stone', name: 'Stone', color: '#000000' });
    await tags.insert(ann, { id: 'wood', name: 'Wood', color: '#000000' });
    await images.assignTag(ann, a, 'wood');
    await images.assignTag(ann, a, 'stone');
    await images.assignTag(ann, a, 'stone'); // again: no second link
    await images.assignTag(ann, b, 'wood');
    const c = await add(ann, 'c.png');
    expect(await tagsOf(ann)).toEqual(
      new Map([
        [c, []],
        [b, ['wood']],
        [a, ['stone', 'wood']],
      ]),
    );
    await images.unassignTag(ann, a, 'stone');
    expect((await tagsOf(ann)).get(a)).toEqual(['wood']);
  });

  it("cannot link another owner's tag", async () => {
    const a = await add(ann, 'a.png');
    await tags.insert(bob, { id: 'stone', name: 'Stone', color: '#000000' });
    await expect(images.assignTag(ann, a, 'stone')).rejects.toThrow();
  });
});

describe('images: pages and searches', () => {
  it('pages newest added first by default, with the total, one owner and kind only', async () => {
    for (const name of ['a.png', 'b.png', 'c.png', 'd.png', 'e.png']) await add(ann, name);
    await add(bob, 'z.png');
    await images.insert(newImage({ ownerId: ann, kind: 'hd', filename: 'big.png' }));
    const query = { ownerId: ann, kind: 'ld' as const, size: 2 };
    const first = await images.page({ ...query, page: 1 });
    expect([names(first), first.total]).toEqual([['e.png', 'd.png'], 5]);
    expect(names(await images.page({ ...query, page: 3 }))).toEqual(['a.png']);
    expect(names(await images.page({ ...query, page: 4 }))).toEqual([]);
  });

  it('keeps the images carrying any of the tags asked', async () => {
    const a = await add(ann, 'a.png');
    const b = await add(ann, 'b.png');
    await add(ann, 'c.png');
    await tags.insert(ann, { id: 'stone', name: 'Stone', color: '#000000' });
    await tags.insert(ann, { id: 'wood', name: 'Wood', color: '#000000' });
    await images.assignTag(ann, a, 'stone');
    await images.assignTag(ann, b, 'wood');
    await images.assignTag(ann, b, 'stone');
    const page = (anyOfTags: string[]) =>
      images.page({ ownerId: ann, kind: 'ld', page: 1, size: 10, anyOfTags });
    expect(names(await page(['stone', 'wood']))).toEqual(['b.png', 'a.png']);
    expect((await page(['wood'])).total).toBe(1);
    expect((await page([])).total).toBe(3);
  });

  it('finds by prompt text, seed, date range and star, in the order asked', async () => {
    const made = [
      [
        'Stone.png',
        { cliptextencode_585: 'grey stone wall', seed: 42, created_at: '2025-03-01T00:00:00Z' },
      ],
      [
        'brick.png',
        { cliptextencode_585: 'red brick, no stone', seed: 7, created_at: '2025-01-15T00:00:00Z' },
      ],
      [
        'amber.png',
        { cliptextencode_585: 'amber glass', seed: 42, created_at: '2024-12-31T23:59:59Z' },
      ],
    ] as const;
    let amber = 0;
    for (const [filename, metadata] of made) {
      const { id } = await images.insert(newImage({ ownerId: ann, filename, metadata }));
      if (filename === 'amber.png') amber = id;
    }
    await images.setStarred(ann, amber, true);
    const found = async (search: ImageSearch) =>
      names(await images.page({ ownerId: ann, kind: 'ld', page: 1, size: 10, search }));

    expect(await found({ sort: 'newest' })).toEqual(['Stone.png', 'brick.png', 'amber.png']);
    expect(await found({ sort: 'oldest' })).toEqual(['amber.png', 'brick.png', 'Stone.png']);
    // By name, whatever the case.
    expect(await found({ sort: 'name' })).toEqual(['amber.png', 'brick.png', 'Stone.png']);
    expect(await found({ promptKey: 'stone', sort: 'newest' })).toEqual(['Stone.png', 'brick.png']);
    // The text is matched as it is: % and _ are no wildcards.
    expect(await found({ promptKey: '%', sort: 'newest' })).toEqual([]);
    expect(await found({ seedKey: '42', sort: 'oldest' })).toEqual(['amber.png', 'Stone.png']);
    expect(
      await found({
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-03-01T00:00:00.000Z',
        sort: 'name',
      }),
    ).toEqual(['brick.png']);
    expect(await found({ starredOnly: true, sort: 'newest' })).toEqual(['amber.png']);
    expect(
      (await images.page({ ownerId: bob, kind: 'ld', page: 1, size: 10, search: { sort: 'name' } }))
        .total,
    ).toBe(0);
  });
});
