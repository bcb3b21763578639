import { MATERIAL_MAPS } from '@tessera/contract';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createImageRepository } from './images.js';
import {
  createMaterialMapRepository,
  type MaterialMapRecord,
  type MaterialMapRepository,
  type MaterialMapSet,
} from './material-maps.js';

// The material_maps table on a real database, SQLite and PostgreSQL: a set of maps kept with
// how it read the height (migration 0020, issue 26, part 4).

let store: TestDatabase;
let maps: MaterialMapRepository;
let ann: number;
let bob: number;

beforeEach(async () => {
  store = await freshDatabase();
  maps = createMaterialMapRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

async function addImage(ownerId: number, filename: string): Promise<number> {
  const image = await createImageRepository(store.db).insert({
    ownerId,
    kind: 'ld',
    filename,
    sourceImageId: null,
    width: 1024,
    height: 1024,
    bytes: 500,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  return image.id;
}

/** The five maps of an image, under names made from `stem` and the map. */
function mapsNamed(stem: string): MaterialMapRecord[] {
  return MATERIAL_MAPS.map((map, i) => ({
    map,
    filename: `${stem}_ld_${map}.png`,
    bytes: 1000 + i,
    preview: `${stem}_ld_${map}.preview.png`,
  }));
}

const MADE = '2026-03-01T10:00:00.000Z';
const REMADE = '2026-03-01T10:05:00.000Z';

describe('material maps: a set and its height settings', () => {
  it('gives back a set as recorded: its maps in order, its edges, its height and when made', async () => {
    const wall = await addImage(ann, 'wall.png');
    const set: MaterialMapSet = {
      seamless: true,
      height: { invert: true, strength: 2.75 },
      maps: mapsNamed('wall'),
    };
    expect(await maps.ofImage(wall)).toBeUndefined();
    await maps.replace(ann, wall, set, MADE);
    expect(await maps.ofImage(wall)).toEqual({ ...set, madeAt: MADE });
  });

  it('keeps every strength of the range exactly', async () => {
    const wall = await addImage(ann, 'wall.png');
    for (const strength of [0.25, 1, 1.75, 3.5, 4]) {
      await maps.replace(
        ann,
        wall,
        { seamless: false, height: { invert: false, strength }, maps: mapsNamed('wall') },
        MADE,
      );
      expect((await maps.ofImage(wall))?.height).toEqual({ invert: false, strength });
    }
  });

  it('replaces a set whole: the new settings, the new time, no rows of the old one', async () => {
    const wall = await addImage(ann, 'wall.png');
    const floor = await addImage(ann, 'floor.png');
    const floorSet: MaterialMapSet = {
      seamless: false,
      height: { invert: false, strength: 0.5 },
      maps: mapsNamed('floor'),
    };
    await maps.replace(ann, floor, floorSet, MADE);
    await maps.replace(
      ann,
      wall,
      { seamless: true, height: { invert: false, strength: 1 }, maps: mapsNamed('wall') },
      MADE,
    );
    const remade: MaterialMapSet = {
      seamless: true,
      height: { invert: true, strength: 3 },
      maps: mapsNamed('wall'),
    };
    await maps.replace(ann, wall, remade, REMADE);

    expect(await maps.ofImage(wall)).toEqual({ ...remade, madeAt: REMADE });
    const rows = await store.db
      .selectFrom('material_maps')
      .select(['height_invert', 'height_strength', 'created_at'])
      .where('image_id', '=', wall)
      .execute();
    expect(rows).toHaveLength(MATERIAL_MAPS.length);
    expect(new Set(rows.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ height_invert: 1, height_strength: 3, created_at: REMADE })]),
    );
    // The other image's set is its own.
    expect(await maps.ofImage(floor)).toEqual({ ...floorSet, madeAt: MADE });
    expect(await maps.filenames(bob)).toEqual(new Set());
    expect((await maps.filenames(ann)).size).toBe(2 * MATERIAL_MAPS.length);
  });

  it('reads a set recorded before the height settings as the defaults: not inverted, strength 1', async () => {
    const wall = await addImage(ann, 'old.png');
    // A row as migration 0012 wrote it, naming none of 0020's columns.
    await sql`
      insert into material_maps
        (owner_id, image_id, map, filename, bytes, preview_filename, seamless, created_at)
      values (${ann}, ${wall}, 'height', 'old_ld_height.png', 10, 'old_ld_height.preview.png',
        1, ${MADE})
    `.execute(store.db);
    expect(await maps.ofImage(wall)).toMatchObject({
      seamless: true,
      height: { invert: false, strength: 1 },
      madeAt: MADE,
    });
  });

  it('refuses the set of an image that is gone, and records nothing', async () => {
    const gone = (await addImage(ann, 'gone.png')) + 100;
    await expect(
      maps.replace(
        ann,
        gone,
        { seamless: false, height: { invert: true, strength: 2 }, maps: mapsNamed('gone') },
        MADE,
      ),
    ).rejects.toThrow();
    expect(await maps.filenames(ann)).toEqual(new Set());
  });
});
