import type { HeightSettings, MaterialMap } from '@tessera/contract';
import type { Db } from './database.js';

export interface MaterialMapRecord {
  map: MaterialMap;
  filename: string;
  bytes: number;
  /** The small copy the 3D preview loads. */
  preview: string;
}

export interface MaterialMapSet {
  seamless: boolean;
  /** How the maps read the height (issue 26, part 4): what a displacement of them scales by. */
  height: HeightSettings;
  maps: MaterialMapRecord[];
}

/** A set as recorded: with when it was made. */
export interface StoredMaterialMapSet extends MaterialMapSet {
  /** ISO 8601: the `createdAt` the set was recorded with. */
  madeAt: string;
}

/** The material_maps table: one method per query. */
export interface MaterialMapRepository {
  /** The image's latest maps; undefined before any were made. */
  ofImage(imageId: number): Promise<StoredMaterialMapSet | undefined>;
  /** The file names of all the owner's maps (what a ZIP of maps may hold). */
  filenames(ownerId: number): Promise<Set<string>>;
  /**
   * Records the image's new set in place of the old one, in one transaction. Throws when the
   * image is gone (the foreign key): its maps would point at nothing.
   */
  replace(ownerId: number, imageId: number, set: MaterialMapSet, createdAt: string): Promise<void>;
}

export function createMaterialMapRepository(db: Db): MaterialMapRepository {
  return {
    async ofImage(imageId) {
      const rows = await db
        .selectFrom('material_maps')
        .select([
          'map',
          'filename',
          'bytes',
          'preview_filename',
          'seamless',
          'height_invert',
          'height_strength',
          'created_at',
        ])
        .where('image_id', '=', imageId)
        .orderBy('id')
        .execute();
      const first = rows[0];
      if (!first) return undefined;
      return {
        seamless: first.seamless === 1,
        height: { invert: first.height_invert === 1, strength: Number(first.height_strength) },
        madeAt: first.created_at,
        maps: rows.map((row) => ({
          map: row.map as MaterialMap,
          filename: row.filename,
          bytes: row.bytes,
          preview: row.preview_filename,
        })),
      };
    },

    async filenames(ownerId) {
      const rows = await db
        .selectFrom('material_maps')
        .select('filename')
        .where('owner_id', '=', ownerId)
        .execute();
      return new Set(rows.map((row) => row.filename));
    },

    async replace(ownerId, imageId, set, createdAt) {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('material_maps').where('image_id', '=', imageId).execute();
        await tx
          .insertInto('material_maps')
          .values(
            set.maps.map(({ map, filename, bytes, preview }) => ({
              owner_id: ownerId,
              image_id: imageId,
              map,
              filename,
              bytes,
              preview_filename: preview,
              seamless: set.seamless ? 1 : 0,
              height_invert: set.height.invert ? 1 : 0,
              height_strength: set.height.strength,
              created_at: createdAt,
            })),
          )
          .execute();
      });
    },
  };
}
