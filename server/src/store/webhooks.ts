import type { Selectable } from 'kysely';
import type {
  WebhookAttemptError,
  WebhookDeliveryState,
  WebhookEventType,
  WebhookScope,
} from '@tessera/contract';
import type {
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookRepository,
} from '../services/webhook-ports.js';
import type { Db } from './database.js';
import type { WebhookDeliveriesTable } from './schema.js';
import { recordWebhookEvents } from './webhook-outbox.js';

export { createWebhookDeliveryQueue } from './webhook-deliveries.js';

const ENDPOINT_COLUMNS = [
  'webhook_endpoints.id',
  'webhook_endpoints.public_id',
  'webhook_endpoints.owner_id',
  'users.username',
  'webhook_endpoints.scope',
  'webhook_endpoints.url',
  'webhook_endpoints.events',
  'webhook_endpoints.active',
  'webhook_endpoints.secret',
  'webhook_endpoints.created_at',
  'webhook_endpoints.previous_secret_until',
] as const;

/** The event types as the column keeps them: each between spaces. */
const eventsColumn = (events: readonly WebhookEventType[]) => ` ${events.join(' ')} `;

/** The webhooks' endpoints and their deliveries as the service manages them (migration 0027). */
export function createWebhookRepository(db: Db): WebhookRepository {
  const endpoints = () =>
    db
      .selectFrom('webhook_endpoints')
      .innerJoin('users', 'users.id', 'webhook_endpoints.owner_id')
      .select(ENDPOINT_COLUMNS);
  const findById = async (id: number) => {
    const row = await endpoints().where('webhook_endpoints.id', '=', id).executeTakeFirst();
    return row && endpointRecord(row);
  };
  const deliveriesWhere = async (endpointId: number, limit: number, deliveryId?: number) => {
    let query = db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('id', 'desc')
      .limit(limit);
    if (deliveryId !== undefined) query = query.where('id', '=', deliveryId);
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'at', 'status', 'error'])
      .where(
        'delivery_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('id', 'asc')
      .execute();
    return rows.map((row) =>
      deliveryRecord(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    );
  };

  return {
    async list(ownerId, scope) {
      let query = endpoints()
        .where('webhook_endpoints.scope', '=', scope)
        .orderBy('webhook_endpoints.id', 'asc');
      // Those for everyone are every admin's to manage, whoever registered them.
      if (scope === 'own') query = query.where('webhook_endpoints.owner_id', '=', ownerId);
      return (await query.execute()).map(endpointRecord);
    },
    async countOwn(ownerId) {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', ownerId)
        .where('scope', '=', 'own')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async create(endpoint, now) {
      const stamp = now.toISOString();
      const row = await db
        .insertInto('webhook_endpoints')
        .values({
          public_id: endpoint.publicId,
          owner_id: endpoint.ownerId,
          scope: endpoint.scope,
          url: endpoint.url,
          events: eventsColumn(endpoint.events),
          active: endpoint.active ? 1 : 0,
          secret: endpoint.secret,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const record = await findById(row.id);
      if (!record) throw new Error(`webhook endpoint ${row.id} vanished after its insert`);
      return record;
    },
    async find(publicId) {
      const row = await endpoints()
        .where('webhook_endpoints.public_id', '=', publicId)
        .executeTakeFirst();
      return row && endpointRecord(row);
    },
    async update(id, changes, now) {
      await db
        .updateTable('webhook_endpoints')
        .set({
          ...(changes.url !== undefined && { url: changes.url }),
          ...(changes.events !== undefined && { events: eventsColumn(changes.events) }),
          ...(changes.active !== undefined && { active: changes.active ? 1 : 0 }),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
      return findById(id);
    },
    async rotateSecret(id, secret, previousUntil, now) {
      // The right-hand side reads the row as it was: the current secret becomes the previous one.
      await db
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          previous_secret: eb.ref('secret'),
          previous_secret_until: previousUntil.toISOString(),
          secret,
          updated_at: now.toISOString(),
        }))
        .where('id', '=', id)
        .execute();
      return findById(id);
    },
    async remove(id) {
      const { numDeletedRows } = await db
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .executeTakeFirst();
      return numDeletedRows > 0n;
    },
    deliveries: (endpointId, limit) => deliveriesWhere(endpointId, limit),
    async enqueueOne(endpointId, event, now) {
      const stamp = now.toISOString();
      const row = await db
        .insertInto('webhook_deliveries')
        .values({
          endpoint_id: endpointId,
          message_id: event.messageId,
          event_type: event.type,
          body: event.body,
          state: 'pending',
          attempts: 0,
          next_attempt_at: null,
          window_start: stamp,
          lease_holder: null,
          lease_expires_at: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return deliveryRecord(row, []);
    },
    recordEvents: (events, now) => recordWebhookEvents(db, events, now),
    async resend(endpointId, deliveryId, now) {
      const stamp = now.toISOString();
      // One being sent right now is left to its try: a second at once would be a duplicate.
      const { numUpdatedRows } = await db
        .updateTable('webhook_deliveries')
        .set({
          state: 'pending',
          next_attempt_at: null,
          window_start: stamp,
          updated_at: stamp,
        })
        .where('id', '=', deliveryId)
        .where('endpoint_id', '=', endpointId)
        .where('state', '!=', 'sending')
        .executeTakeFirst();
      const [record] = await deliveriesWhere(endpointId, 1, deliveryId);
      return numUpdatedRows > 0n || record?.state === 'sending' ? record : undefined;
    },
  };
}

interface EndpointRow {
  id: number;
  public_id: string;
  owner_id: number;
  username: string;
  scope: string;
  url: string;
  events: string;
  active: number;
  secret: string;
  created_at: string;
  previous_secret_until: string | null;
}

function endpointRecord(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    publicId: row.public_id,
    ownerId: row.owner_id,
    ownerName: row.username,
    scope: row.scope as WebhookScope,
    url: row.url,
    events: row.events.split(' ').filter(Boolean) as WebhookEventType[],
    active: Number(row.active) === 1,
    secret: row.secret,
    createdAt: row.created_at,
    previousSecretUntil: row.previous_secret_until,
  };
}

function deliveryRecord(
  row: Selectable<WebhookDeliveriesTable>,
  attempts: readonly { at: string; status: number | null; error: string | null }[],
): WebhookDeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    messageId: row.message_id,
    type: row.event_type,
    state: row.state as WebhookDeliveryState,
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    attempts: attempts.map((attempt) => ({
      at: attempt.at,
      status: attempt.status,
      error: attempt.error as WebhookAttemptError | null,
    })),
  };
}
