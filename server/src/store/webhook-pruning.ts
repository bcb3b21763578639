import { sql } from 'kysely';
import type { WebhookDeliveryPruner } from '../services/webhook-ports.js';
import type { Db } from './database.js';

/**
 * The deletions that keep the webhook tables bounded (migration 0028's index finds the settled
 * deliveries by their last change). Each batch is one short statement, so a first pruning of a
 * large table never holds SQLite's single writer (or PostgreSQL's row locks) for long; several
 * processes pruning at once delete the same rows, whichever comes first.
 */
export function createWebhookDeliveryPruner(db: Db): WebhookDeliveryPruner {
  return {
    async removeSettledBefore(cutoff, keepLatest, batch) {
      if (!Number.isInteger(keepLatest) || keepLatest < 1)
        throw new RangeError(`keepLatest must be a whole number from 1: ${keepLatest}`);
      const stamp = cutoff.toISOString();
      let removed = 0;
      for (;;) {
        // Not among its endpoint's latest `keepLatest`: older than the one at that rank (an
        // endpoint with fewer has none there, the comparison is null, and all of its stay).
        // The attempts go with their delivery (on delete cascade).
        const result = await sql`
          delete from webhook_deliveries where id in (
            select d.id from webhook_deliveries d
            where d.state in ('delivered', 'failed') and d.updated_at < ${stamp}
              and d.id < (
                select k.id from webhook_deliveries k where k.endpoint_id = d.endpoint_id
                order by k.id desc limit 1 offset ${keepLatest - 1}
              )
            order by d.id asc
            limit ${batch}
          )`.execute(db);
        const count = Number(result.numAffectedRows ?? 0n);
        removed += count;
        if (count < batch) return removed;
      }
    },
    async forgetPreviousSecrets(now) {
      const { numUpdatedRows } = await db
        .updateTable('webhook_endpoints')
        .set({ previous_secret: null, previous_secret_until: null })
        .where('previous_secret_until', '<=', now.toISOString())
        .executeTakeFirst();
      return Number(numUpdatedRows);
    },
  };
}
