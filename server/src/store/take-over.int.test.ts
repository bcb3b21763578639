import { PRINT_DEFAULT_SETTINGS } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planTakeOver } from '../services/take-over-plan.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createImageRepository, type ImageRepository } from './images.js';
import { createMaterialMapRepository } from './material-maps.js';
import { createPrintFileRepository } from './print-files.js';
import { createReferenceRepository } from './references.js';
import { createTagRepository } from './tags.js';
import { createTakeOverRepository, type TakeOverRepository } from './take-over.js';

/** An admin takes over a retired user's rows (issue 29, part 2), on a real database. */
describe('TakeOverRepository', () => {
  let store: TestDatabase;
  let repo: TakeOverRepository;
  let images: ImageRepository;
  let boss: number;
  let dora: number;

  const image = async (ownerId: number, kind: 'ld' | 'hd', filename: string, extra = {}) =>
    images.insert({
      ownerId,
      kind,
      filename,
      sourceImageId: null,
      width: 64,
      height: 64,
      bytes: 100,
      metadata: { prompt: 'stone wall', ...extra },
      createdAt: '2026-01-01T00:00:00.000Z',
    });

  beforeEach(async () => {
    store = await freshDatabase();
    repo = createTakeOverRepository(store.db);
    images = createImageRepository(store.db);
    boss = await addOwner(store.db, 'boss');
    dora = await addOwner(store.db, 'dora');
    const tags = createTagRepository(store.db);
    // boss has a tile.png and a tag 'stone' whose id dora's 'wood' happens to share.
    const own = await image(boss, 'ld', 'tile.png');
    await tags.insert(boss, { id: 't1', name: 'stone', color: '#888888' });
    await images.assignTag(boss, own.id, 't1');

    const ld = await image(dora, 'ld', 'tile.png', { input_image_path: 'ref.png' });
    await images.setStarred(dora, ld.id, true);
    await tags.insert(dora, { id: 'd1', name: 'stone', color: '#777777' });
    await tags.insert(dora, { id: 't1', name: 'wood', color: '#aa7744' });
    await images.assignTag(dora, ld.id, 'd1');
    await images.assignTag(dora, ld.id, 't1');
    const hd = await images.insert({
      ownerId: dora,
      kind: 'hd',
      filename: 'tile_30x30b.png',
      sourceImageId: ld.id,
      width: 640,
      height: 640,
      bytes: 1000,
      metadata: { source_image: 'tile.png' },
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await createMaterialMapRepository(store.db).replace(
      dora,
      ld.id,
      {
        seamless: true,
        height: { invert: false, strength: 1 },
        maps: [
          {
            map: 'normal-opengl',
            filename: 'tile_ld_normal-opengl.png',
            bytes: 10,
            preview: 'tile_ld_normal-opengl.preview.png',
          },
        ],
      },
      '2026-01-02T00:00:00.000Z',
    );
    await createPrintFileRepository(store.db).record({
      ownerId: dora,
      imageId: hd.id,
      jobId: 'job-1',
      settings: PRINT_DEFAULT_SETTINGS,
      filename: 'tile_30x30b_360dpi.tif',
      bytes: 5_000_000_000,
      width: 10,
      height: 10,
      createdAt: '2026-01-02T00:00:00.000Z',
    });
    await createReferenceRepository(store.db).record(dora, 'ref.png', 'abc', '2026-01-01');
  });
  afterEach(async () => {
    await store.close();
  });

  const plan = async () =>
    planTakeOver(
      dora,
      boss,
      await repo.holdings(dora),
      await repo.takenNames(boss),
      new Map(),
      new Map([['ref.png', 5]]),
    );

  it('moves every row to the admin, renaming what they have, and removes the emptied account', async () => {
    const { reownership, renamed } = await plan();
    expect(renamed).toBe(1);
    await repo.reown(reownership);

    const users = await store.db.selectFrom('users').select('username').execute();
    expect(users.map((u) => u.username)).toEqual(['boss']);
    const taken = await images.find(boss, 'ld', 'tile-2.png');
    expect(taken).toMatchObject({ starred: true, metadata: { input_image_path: 'ref.png' } });
    expect(await images.find(boss, 'ld', 'tile.png')).toBeDefined();
    const hd = await images.find(boss, 'hd', 'tile_30x30b.png');
    expect(hd).toMatchObject({
      sourceImageId: taken?.id,
      metadata: { source_image: 'tile-2.png' },
    });

    // 'stone' merged into boss's own; 'wood' moved under a new id (boss has 't1').
    const tags = await store.db
      .selectFrom('tags')
      .select(['owner_id', 'id', 'name'])
      .orderBy('seq')
      .execute();
    expect(tags.map((t) => [t.owner_id, t.name])).toEqual([
      [boss, 'stone'],
      [boss, 'wood'],
    ]);
    const wood = tags.find((t) => t.name === 'wood')?.id;
    expect(wood).not.toBe('t1');
    const links = await store.db
      .selectFrom('image_tags')
      .select(['owner_id', 'tag_id'])
      .where('image_id', '=', taken?.id ?? 0)
      .orderBy('tag_id')
      .execute();
    expect(links).toEqual(
      [
        { owner_id: boss, tag_id: 't1' },
        { owner_id: boss, tag_id: wood },
      ].sort((a, b) => String(a.tag_id).localeCompare(String(b.tag_id))),
    );

    expect(await createMaterialMapRepository(store.db).filenames(boss)).toEqual(
      new Set(['tile-2_ld_normal-opengl.png']),
    );
    const prints = await createPrintFileRepository(store.db).ofImage(hd?.id ?? 0);
    expect(prints.map((p) => [p.ownerId, p.filename, Number(p.bytes)])).toEqual([
      [boss, 'tile_30x30b_360dpi.tif', 5_000_000_000],
    ]);
    expect(await createReferenceRepository(store.db).findByHash(boss, 'abc')).toBe('ref.png');
  });

  it('changes nothing when any row cannot move (one transaction)', async () => {
    const { reownership } = await plan();
    // A plan gone wrong: the LD image keeps a name boss has.
    const images0 = reownership.images.map((i) =>
      i.filename === 'tile-2.png' ? { ...i, filename: 'tile.png' } : i,
    );
    await expect(repo.reown({ ...reownership, images: images0 })).rejects.toThrow();
    const held = await repo.holdings(dora);
    expect(held.images.map((i) => i.filename).sort()).toEqual(['tile.png', 'tile_30x30b.png']);
    expect(held.maps).toHaveLength(1);
    expect((await createTagRepository(store.db).page(dora, 1, 10)).total).toBe(2);
  });
});
