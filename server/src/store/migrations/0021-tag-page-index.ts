import type { Kysely } from 'kysely';

/**
 * An owner's tags in the order list-tag pages them (store/tags.ts): the page is read off the
 * index instead of sorting the owner's tags for every request, the most frequent command
 * (docs/architecture.md, "Where a command's time goes").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tags_owner_order')
    .on('tags')
    .columns(['owner_id', 'created_at', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tags_owner_order').execute();
}
