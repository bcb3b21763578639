import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createImageRepository, type ImageRepository } from './images.js';
import { createTagRepository, type TagRecord, type TagRepository } from './tags.js';

// The tags table on a real database (the integration tier: npm run test:int).

let store: TestDatabase;
let tags: TagRepository;
let images: ImageRepository;
let ann: number;
let bob: number;

beforeEach(async () => {
  store = await freshDatabase();
  tags = createTagRepository(store.db);
  images = createImageRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

const stone: TagRecord = { id: 'tag-stone', name: 'Stone', color: '#808080' };
const wood: TagRecord = { id: 'tag-wood', name: 'Wood', color: '#8b4513' };

async function ldImage(ownerId: number, filename: string): Promise<number> {
  const image = await images.insert({
    ownerId,
    kind: 'ld',
    filename,
    sourceImageId: null,
    width: 8,
    height: 8,
    bytes: 1,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  return image.id;
}

describe('tags', () => {
  it('finds a tag by id and by name, for its owner only', async () => {
    await tags.insert(ann, stone);
    expect(await tags.find(ann, stone.id)).toEqual(stone);
    expect(await tags.findByName(ann, 'Stone')).toEqual(stone);
    expect(await tags.find(bob, stone.id)).toBeUndefined();
    expect(await tags.findByName(bob, 'Stone')).toBeUndefined();
  });

  it('lets two owners use the same id and the same name', async () => {
    await tags.insert(ann, stone);
    await tags.insert(bob, stone);
    expect(await tags.find(bob, stone.id)).toEqual(stone);
  });

  it("refuses a second tag with one of the owner's names or ids, the first kept", async () => {
    await tags.insert(ann, stone);
    await expect(tags.insert(ann, { ...wood, name: 'Stone' })).rejects.toThrow();
    await expect(tags.insert(ann, { ...stone, name: 'Other' })).rejects.toThrow();
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [stone], total: 1 });
  });

  it('inserts under a cap only while the owner has fewer tags, writing nothing past it (issue 22, part 4)', async () => {
    expect(await tags.insert(ann, stone, 2)).toBe(true);
    expect(await tags.insert(ann, wood, 2)).toBe(true);
    expect(await tags.insert(ann, { id: 'tag-third', name: 'Third', color: '#000000' }, 2)).toBe(
      false,
    );
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [stone, wood], total: 2 });
    // Another owner's tags do not count.
    expect(await tags.insert(bob, stone, 1)).toBe(true);
    // Parallel creates: the count is taken in the insert's transaction. SQLite writes one at a
    // time, so the cap holds exactly; on PostgreSQL creates at the very same instant may each
    // pass it by one, never leaving fewer than the cap.
    const many = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      name: `P${i}`,
      color: '#000000',
    }));
    const results = await Promise.all(many.map((tag) => tags.insert(bob, tag, 4)));
    const { total } = await tags.page(bob, 1, 10);
    expect(results.filter(Boolean).length).toBe(total - 1);
    if (process.env['TESSERA_TEST_STORE'] === 'postgres') expect(total).toBeGreaterThanOrEqual(4);
    else expect(total).toBe(4);
  });

  it('pages in creation order with the total', async () => {
    const made = Array.from({ length: 5 }, (_, i) => ({
      id: `t${i}`,
      name: `Tag ${i}`,
      color: '#000000',
    }));
    for (const tag of made) await tags.insert(ann, tag);
    await tags.insert(bob, wood);
    expect(await tags.page(ann, 1, 2)).toEqual({ tags: made.slice(0, 2), total: 5 });
    expect(await tags.page(ann, 3, 2)).toEqual({ tags: made.slice(4), total: 5 });
    expect(await tags.page(ann, 4, 2)).toEqual({ tags: [], total: 5 });
    // A page that ends exactly with the tags, one that holds them all, one more than all.
    expect(await tags.page(ann, 1, 5)).toEqual({ tags: made, total: 5 });
    expect(await tags.page(ann, 1, 6)).toEqual({ tags: made, total: 5 });
    expect(await tags.page(ann, 1, 4)).toEqual({ tags: made.slice(0, 4), total: 5 });
    expect(await tags.page(bob, 2, 1)).toEqual({ tags: [], total: 1 });
    const carol = await addOwner(store.db, 'carol');
    expect(await tags.page(carol, 1, 10)).toEqual({ tags: [], total: 0 });
    expect(await tags.page(carol, 2, 10)).toEqual({ tags: [], total: 0 });
  });

  it("updates the owner's tag, and says false for one the owner has not", async () => {
    await tags.insert(ann, stone);
    expect(await tags.update(ann, { ...stone, name: 'Granite', color: '#111111' })).toBe(true);
    expect(await tags.find(ann, stone.id)).toEqual({ ...stone, name: 'Granite', color: '#111111' });
    expect(await tags.update(bob, { ...stone, name: 'Taken' })).toBe(false);
    expect(await tags.find(ann, stone.id)).toMatchObject({ name: 'Granite' });
  });

  it('removes a tag and its links to images, leaving the images and other tags', async () => {
    const tile = await ldImage(ann, 'tile.png');
    await tags.insert(ann, stone);
    await tags.insert(ann, wood);
    await images.assignTag(ann, tile, stone.id);
    await images.assignTag(ann, tile, wood.id);
    expect(await tags.remove(ann, stone.id)).toBe(true);
    expect(await tags.find(ann, stone.id)).toBeUndefined();
    const page = await images.page({ ownerId: ann, kind: 'ld', page: 1, size: 10 });
    expect(page.images.map(({ id, tags }) => [id, tags])).toEqual([[tile, [wood.id]]]);
    expect(await images.find(ann, 'ld', 'tile.png')).toBeDefined();
  });

  it("says false for a tag the owner has not, and leaves another owner's tag", async () => {
    await tags.insert(bob, stone);
    expect(await tags.remove(ann, stone.id)).toBe(false);
    expect(await tags.find(bob, stone.id)).toEqual(stone);
  });
});

describe('list-tag pages kept while the tags stay (issue 28, part 1)', () => {
  it('serves a page again until a change of any kind, from any process, makes it read anew', async () => {
    // Two repositories on one database: two server processes.
    const other = createTagRepository(store.db);
    await tags.insert(ann, stone);
    const first = await tags.page(ann, 1, 10);
    expect(first).toEqual({ tags: [stone], total: 1 });
    expect(await tags.page(ann, 1, 10)).toBe(first);

    await other.insert(ann, wood);
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [stone, wood], total: 2 });
    await other.update(ann, { ...wood, name: 'Oak', color: '#aa7744' });
    expect((await tags.page(ann, 1, 10)).tags[1]).toEqual({
      ...wood,
      name: 'Oak',
      color: '#aa7744',
    });
    // Past the repositories: plain SQL, as another version of the server or an admin might.
    await sql`update tags set color = '#000000' where id = ${stone.id}`.execute(store.db);
    expect((await tags.page(ann, 1, 10)).tags[0]?.color).toBe('#000000');
    await other.remove(ann, wood.id);
    expect(await tags.page(ann, 1, 10)).toEqual({
      tags: [{ ...stone, color: '#000000' }],
      total: 1,
    });
  });

  it("keeps each owner's pages apart, and pages of another size or number apart", async () => {
    await tags.insert(ann, stone);
    await tags.insert(ann, wood);
    const annFirst = await tags.page(ann, 1, 1);
    const annSecond = await tags.page(ann, 2, 1);
    expect([annFirst.tags, annSecond.tags]).toEqual([[stone], [wood]]);
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [stone, wood], total: 2 });
    // Bob's change leaves Ann's pages as they were read.
    await tags.insert(bob, stone);
    expect(await tags.page(ann, 1, 1)).toBe(annFirst);
    expect(await tags.page(bob, 1, 1)).toEqual({ tags: [stone], total: 1 });
  });

  it('gives pages no caller can change for the next one', async () => {
    await tags.insert(ann, stone);
    const page = await tags.page(ann, 1, 10);
    expect(() => (page.tags as TagRecord[]).push(wood)).toThrow(TypeError);
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [stone], total: 1 });
  });

  it("reads anew after the owner's deletion took the tags away", async () => {
    await tags.insert(ann, stone);
    await tags.page(ann, 1, 10);
    await sql`delete from users where id = ${ann}`.execute(store.db);
    expect(await tags.page(ann, 1, 10)).toEqual({ tags: [], total: 0 });
  });
});
