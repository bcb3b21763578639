import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * The PBR material maps made from an image (issue 17, part 5): one row per map of the image's
 * latest set. Rows go with their image (cascade); the files live in the owner's `maps` area.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('material_maps')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image_id', 'integer', (c) =>
      c.notNull().references('images.id').onDelete('cascade'),
    )
    .addColumn('map', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('preview_filename', 'text', (c) => c.notNull())
    .addColumn('seamless', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('material_maps_image_map', ['image_id', 'map'])
    .addUniqueConstraint('material_maps_owner_filename', ['owner_id', 'filename'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('material_maps').execute();
}
