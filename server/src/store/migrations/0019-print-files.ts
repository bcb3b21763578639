import type { Kysely } from 'kysely';
import { numberedPrimaryKey } from '../dialect.js';

/**
 * Print files of HD images (issue 26, part 1): one row per finished TIFF, made by a `print` job
 * (its public id) with the settings it was ordered with (JSON). Rows go with their HD image
 * (cascade); the files live in the owner's `print` area, one name per image and settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('print_files')
    .addColumn('id', 'integer', numberedPrimaryKey(db))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image_id', 'integer', (c) =>
      c.notNull().references('images.id').onDelete('cascade'),
    )
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('print_files_owner_filename', ['owner_id', 'filename'])
    .execute();
  await db.schema.createIndex('print_files_image').on('print_files').column('image_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('print_files').execute();
}
