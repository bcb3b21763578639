import type { Kysely } from 'kysely';

/**
 * The HD retention policy (issue 29, part 4). An HD image whose file the policy removed keeps its
 * row (its metadata, its thumbnail, the way back to its LD source) with `hd_removed_at` set, so
 * the HD gallery can say so and the HD can be ordered again. `hd_removal` is the intent log of
 * the removal: 'pending' is written before the file goes and 'done' after, so a run that a crash
 * stopped in between is finished by the next one.
 *
 * `retention_runs` has one row per day the policy ran: the process that inserts the day's row is
 * the one that runs it, however many processes share the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('hd_removed_at', 'text').execute();
  await db.schema.alterTable('images').addColumn('hd_removal', 'varchar(16)').execute();
  // The policy's scan: HD images by age, and the removals left pending.
  await db.schema
    .createIndex('images_hd_retention')
    .on('images')
    .columns(['kind', 'hd_removal', 'created_at'])
    .execute();
  await db.schema
    .createTable('retention_runs')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('removed', 'integer')
    .addColumn('bytes', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retention_runs').execute();
  await db.schema.dropIndex('images_hd_retention').execute();
  await db.schema.alterTable('images').dropColumn('hd_removal').execute();
  await db.schema.alterTable('images').dropColumn('hd_removed_at').execute();
}
