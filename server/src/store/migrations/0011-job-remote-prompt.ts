import type { Kysely } from 'kysely';

/**
 * The prompt a job queued on a ComfyUI server (its server, prompt id and websocket client id):
 * after a restart the job picks that prompt up from the server's /history or /queue instead of
 * running the same GPU work a second time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('prompt_server', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('prompt_id', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('prompt_client_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('prompt_client_id').execute();
  await db.schema.alterTable('jobs').dropColumn('prompt_id').execute();
  await db.schema.alterTable('jobs').dropColumn('prompt_server').execute();
}
