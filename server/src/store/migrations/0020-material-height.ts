import type { Kysely } from 'kysely';

/**
 * How a set of material maps read the height (issue 26, part 4): inverted or not, and the
 * strength of its relief, kept with the maps it made (on every row of the set, as `seamless`
 * is). Sets made before were read as the defaults: not inverted, strength 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('material_maps')
    .addColumn('height_invert', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Steps of 0.25 up to 4 are exact in a 4-byte float, as in SQLite's 8-byte one.
  await db.schema
    .alterTable('material_maps')
    .addColumn('height_strength', 'real', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('material_maps').dropColumn('height_strength').execute();
  await db.schema.alterTable('material_maps').dropColumn('height_invert').execute();
}
