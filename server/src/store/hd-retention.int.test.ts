import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import type { Db } from './database.js';
import { createHdRetentionRepository, type HdRetentionRepository } from './hd-retention.js';
import { DEFAULT_HEIGHT_SETTINGS, PRINT_DEFAULT_SETTINGS } from '@tessera/contract';
import { createImageRepository, type ImageRepository, type NewImage } from './images.js';
import { createMaterialMapRepository } from './material-maps.js';
import { createPrintFileRepository } from './print-files.js';

/** The HD retention policy's rows (migration 0024), on a real database. */
describe('createHdRetentionRepository', () => {
  let store: TestDatabase;
  let db: Db;
  let retention: HdRetentionRepository;
  let images: ImageRepository;
  let alice: number;

  const hd = (filename: string, createdAt: string): NewImage => ({
    ownerId: alice,
    kind: 'hd',
    filename,
    sourceImageId: null,
    width: 96,
    height: 48,
    bytes: 1000,
    metadata: { size: '60x120' },
    createdAt,
  });

  beforeEach(async () => {
    store = await freshDatabase();
    db = store.db;
    retention = createHdRetentionRepository(db);
    images = createImageRepository(db);
    alice = await addOwner(db, 'alice');
  });
  afterEach(async () => {
    await store.close();
  });

  it('lists the HD images made before the cutoff, not LD ones, oldest first, with their owner', async () => {
    await images.insert(hd('b.png', '2026-01-02T00:00:00.000Z'));
    await images.insert(hd('a.png', '2026-01-01T00:00:00.000Z'));
    await images.insert(hd('at-cutoff.png', '2026-01-10T00:00:00.000Z'));
    await images.insert({ ...hd('ld.png', '2025-01-01T00:00:00.000Z'), kind: 'ld' });

    const listed = await retention.candidates('2026-01-10T00:00:00.000Z');
    expect(listed.map((c) => [c.owner, c.filename, c.bytes, c.pending])).toEqual([
      ['alice', 'a.png', 1000, false],
      ['alice', 'b.png', 1000, false],
    ]);
  });

  it('keeps a pending removal listed until done, then never again; the row and its metadata stay', async () => {
    const image = await images.insert(hd('old.png', '2026-01-01T00:00:00.000Z'));
    const cutoff = '2026-02-01T00:00:00.000Z';
    expect(await retention.markPending(image.id, cutoff, '2026-03-01T00:00:00.000Z')).toBe(true);
    // A later cutoff (a rerun) still lists it, pending, and marking again keeps the first date.
    expect(await retention.candidates('2026-01-01T00:00:00.000Z')).toMatchObject([
      { filename: 'old.png', pending: true },
    ]);
    expect(await retention.markPending(image.id, cutoff, '2026-03-02T00:00:00.000Z')).toBe(true);
    await retention.markDone(image.id);

    expect(await retention.candidates('2027-01-01T00:00:00.000Z')).toEqual([]);
    expect(await retention.markPending(image.id, cutoff, '2026-03-03T00:00:00.000Z')).toBe(false);
    expect(await images.find(alice, 'hd', 'old.png')).toMatchObject({
      metadata: { size: '60x120' },
      hdRemovedAt: '2026-03-01T00:00:00.000Z',
    });
  });

  it('counts and names the maps and print files made from a candidate; done removes their rows', async () => {
    const image = await images.insert(hd('old.png', '2026-01-01T00:00:00.000Z'));
    const maps = createMaterialMapRepository(db);
    const prints = createPrintFileRepository(db);
    await maps.replace(
      alice,
      image.id,
      {
        seamless: false,
        height: DEFAULT_HEIGHT_SETTINGS,
        maps: [
          { map: 'normal-opengl', filename: 'old_n.png', bytes: 300, preview: 'old_n.preview.png' },
          { map: 'roughness', filename: 'old_r.png', bytes: 200, preview: 'old_r.preview.png' },
        ],
      },
      image.createdAt,
    );
    const print = {
      ownerId: alice,
      imageId: image.id,
      jobId: 'p1',
      settings: PRINT_DEFAULT_SETTINGS,
      bytes: 7000,
      width: 96,
      height: 48,
      createdAt: image.createdAt,
    };
    await prints.record({ ...print, filename: 'old_print.tif' });
    await prints.record({ ...print, filename: 'old_print_300.tif', bytes: 9000_000_000 });

    // Bytes past 2^32 (an HD slab's 16-bit print) add up on both databases.
    const [candidate] = await retention.candidates('2026-02-01T00:00:00.000Z');
    expect(candidate).toMatchObject({ bytes: 1000, derivedBytes: 500 + 7000 + 9000_000_000 });
    expect(await retention.derivedFiles(image.id)).toEqual({
      maps: [
        { filename: 'old_n.png', preview: 'old_n.preview.png' },
        { filename: 'old_r.png', preview: 'old_r.preview.png' },
      ],
      prints: ['old_print.tif', 'old_print_300.tif'],
    });

    // Not pending: done changes nothing.
    await retention.markDone(image.id);
    expect((await retention.derivedFiles(image.id)).prints).toHaveLength(2);
    await retention.markPending(image.id, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
    await retention.markDone(image.id);
    expect(await retention.derivedFiles(image.id)).toEqual({ maps: [], prints: [] });
    expect(await maps.ofImage(image.id)).toBeUndefined();
  });

  it('does not mark an image made after the cutoff (ordered again since the plan was read)', async () => {
    const image = await images.insert(hd('new.png', '2026-02-01T00:00:00.000Z'));
    expect(await retention.markPending(image.id, '2026-02-01T00:00:00.000Z', 'now')).toBe(false);
    expect(await retention.markPending(999, '2027-01-01T00:00:00.000Z', 'now')).toBe(false);
  });

  it('restores a removed HD ordered again as an ordinary HD image', async () => {
    const image = await images.insert(hd('again.png', '2026-01-01T00:00:00.000Z'));
    expect(await images.restoreRemovedHd(hd('again.png', '2026-05-01T00:00:00.000Z'))).toBe(
      undefined,
    );
    await retention.markPending(image.id, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
    await retention.markDone(image.id);

    const restored = await images.restoreRemovedHd({
      ...hd('again.png', '2026-05-01T00:00:00.000Z'),
      bytes: 2000,
    });
    expect(restored).toMatchObject({ id: image.id, bytes: 2000, hdRemovedAt: null });
    expect(await retention.candidates('2026-04-01T00:00:00.000Z')).toEqual([]);
  });

  it('gives the day to exactly one claimer, and a stale unfinished claim to one taker', async () => {
    const claims = await Promise.all(
      ['p1', 'p2', 'p3'].map((holder) =>
        retention.claimDay(
          '2026-03-01',
          holder,
          '2026-03-01T00:00:00.000Z',
          '2026-02-28T18:00:00.000Z',
        ),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Not stale yet: nobody takes it over.
    expect(
      await retention.claimDay(
        '2026-03-01',
        'p4',
        '2026-03-01T01:00:00.000Z',
        '2026-02-28T19:00:00.000Z',
      ),
    ).toBe(false);
    // Stale (its process died): one taker.
    const takers = await Promise.all(
      ['p5', 'p6'].map((holder) =>
        retention.claimDay(
          '2026-03-01',
          holder,
          '2026-03-01T08:00:00.000Z',
          '2026-03-01T02:00:00.000Z',
        ),
      ),
    );
    expect(takers.filter(Boolean)).toHaveLength(1);
    const winner = takers[0] ? 'p5' : 'p6';
    await retention.finishDay('2026-03-01', winner, '2026-03-01T08:01:00.000Z', 2, 3000);
    // Finished: never taken again, however late.
    expect(
      await retention.claimDay(
        '2026-03-01',
        'p7',
        '2026-03-02T08:00:00.000Z',
        '2026-03-02T07:00:00.000Z',
      ),
    ).toBe(false);
    expect(await db.selectFrom('retention_runs').select(['holder', 'removed']).execute()).toEqual([
      { holder: winner, removed: 2 },
    ]);
  });
});
