import { sql } from 'kysely';
import type { WebhookEventDraft } from '../services/webhook-ports.js';
import type { Db } from './database.js';

/**
 * Writes each event's deliveries: one row for every active endpoint that asked for its type, the
 * owner's own and those for everyone. One INSERT … SELECT per event, on the executor given (a
 * job's end passes its transaction, so the event is recorded exactly when the job ends). A
 * message already recorded for an endpoint is not recorded twice.
 */
export async function recordWebhookEvents(
  db: Db,
  events: readonly WebhookEventDraft[],
  now: Date,
): Promise<void> {
  const stamp = now.toISOString();
  for (const event of events) {
    await sql`
      insert into webhook_deliveries
        (endpoint_id, message_id, event_type, body, state, attempts, next_attempt_at,
         window_start, created_at, updated_at)
      select e.id, ${event.messageId}, ${event.type}, ${event.body}, 'pending', 0, null,
        ${stamp}, ${stamp}, ${stamp}
      from webhook_endpoints e
      where e.active = 1 and e.events like ${`% ${event.type} %`}
        and ((e.scope = 'own' and e.owner_id = ${event.ownerId}) or e.scope = 'all')
      on conflict (endpoint_id, message_id) do nothing`.execute(db);
  }
}
