import { sql } from 'kysely';
import type { ClaimedDelivery, WebhookDeliveryQueue } from '../services/webhook-ports.js';
import { databaseDialect, type Db } from './database.js';

interface ClaimedRow {
  id: number;
  endpoint_id: number;
  message_id: string;
  event_type: string;
  body: string;
  attempts: number;
  window_start: string;
}

/**
 * The deliveries due at `stamp`: pending and due (null: due now), or being sent under a lease that
 * ran out (its process died mid-send), of an endpoint that is not paused. Oldest first.
 */
const due = (stamp: string, limit: number, locking = sql``) => sql<number>`
  select d.id from webhook_deliveries d
  where ((d.state = 'pending' and (d.next_attempt_at is null or d.next_attempt_at <= ${stamp}))
      or (d.state = 'sending' and d.lease_expires_at < ${stamp}))
    and exists (
      select 1 from webhook_endpoints e where e.id = d.endpoint_id and e.active = 1
    )
  order by d.id asc
  limit ${limit}
  ${locking}`;

const RETURNED = sql.raw(
  'webhook_deliveries.id, webhook_deliveries.endpoint_id, webhook_deliveries.message_id, ' +
    'webhook_deliveries.event_type, webhook_deliveries.body, webhook_deliveries.attempts, ' +
    'webhook_deliveries.window_start',
);

/**
 * The deliveries' lease protocol (issue 30, part 3), as the job queue's (0015): a claim takes due
 * rows in one statement (SQLite runs it alone; PostgreSQL passes over rows another claim is
 * locking, FOR UPDATE SKIP LOCKED), so two processes never hold the same delivery; a try is
 * saved only while its lease is held.
 */
export function createWebhookDeliveryQueue(db: Db): WebhookDeliveryQueue {
  const postgres = databaseDialect(db) === 'postgres';
  return {
    async claim(holder, leaseMs, limit, now) {
      const stamp = now.toISOString();
      const until = new Date(now.getTime() + leaseMs).toISOString();
      const result = postgres
        ? await sql<ClaimedRow>`
            with next as (${due(stamp, limit, sql`for update of d skip locked`)})
            update webhook_deliveries set
              state = 'sending', lease_holder = ${holder}, lease_expires_at = ${until},
              updated_at = ${stamp}
            from next where webhook_deliveries.id = next.id
            returning ${RETURNED}`.execute(db)
        : await sql<ClaimedRow>`
            update webhook_deliveries set
              state = 'sending', lease_holder = ${holder}, lease_expires_at = ${until},
              updated_at = ${stamp}
            where id in (${due(stamp, limit)})
            returning ${RETURNED}`.execute(db);
      const rows = [...result.rows].sort((a, b) => a.id - b.id);
      if (rows.length === 0) return [];
      const endpoints = await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_until'])
        .where('id', 'in', [...new Set(rows.map((row) => row.endpoint_id))])
        .execute();
      const claimed: ClaimedDelivery[] = [];
      for (const row of rows) {
        const endpoint = endpoints.find((e) => e.id === row.endpoint_id);
        // Removed since the claim: its deliveries went with it.
        if (!endpoint) continue;
        claimed.push({
          id: row.id,
          messageId: row.message_id,
          type: row.event_type,
          body: row.body,
          url: endpoint.url,
          secret: endpoint.secret,
          previousSecret:
            endpoint.previous_secret !== null && endpoint.previous_secret_until !== null
              ? { secret: endpoint.previous_secret, until: endpoint.previous_secret_until }
              : null,
          attempts: Number(row.attempts),
          windowStart: row.window_start,
        });
      }
      return claimed;
    },
    async settle(id, holder, attempt, outcome, now) {
      return db.transaction().execute(async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            state: outcome.state,
            attempts: eb('attempts', '+', 1),
            next_attempt_at:
              outcome.state === 'pending' ? outcome.nextAttemptAt.toISOString() : null,
            lease_holder: null,
            lease_expires_at: null,
            updated_at: now.toISOString(),
          }))
          .where('id', '=', id)
          .where('state', '=', 'sending')
          .where('lease_holder', '=', holder)
          .executeTakeFirst();
        if (numUpdatedRows === 0n) return false;
        await trx
          .insertInto('webhook_attempts')
          .values({ delivery_id: id, at: attempt.at, status: attempt.status, error: attempt.error })
          .execute();
        return true;
      });
    },
  };
}
