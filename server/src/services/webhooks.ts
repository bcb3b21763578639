import { randomBytes } from 'node:crypto';
import {
  MAX_WEBHOOKS_PER_USER,
  WEBHOOK_DELIVERIES_SHOWN,
  WEBHOOK_SECRET_GRACE_HOURS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEXTS,
  type WebhookCreate,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookPayload,
  type WebhookRotated,
  type WebhookScope,
  type WebhookUpdate,
} from '@tessera/contract';
import type { Owner } from '../owner.js';
import { noAuditTrail, type AuditTrail } from './audit.js';
import type {
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookRepository,
} from './webhook-ports.js';
import { newWebhookSecret } from './webhook-signature.js';

/** Who asks: the signed-in user, their role, and where from (for the audit trail). */
export interface WebhookCaller {
  owner: Owner;
  admin: boolean;
  address?: string;
}

/** What the service is given besides its repository. */
export interface WebhookServiceOptions {
  /** Told when a delivery is due now (the test event, a resend), so it goes without a poll. */
  wake?: () => void;
  now?: () => Date;
  /** Where creations, changes, removals and rotations are recorded. */
  audit?: AuditTrail;
}

const HOUR_MS = 60 * 60 * 1000;

/** An answer, or a refusal with its status and the contract's text. */
export type WebhookResult<T> =
  { ok: true; value: T } | { ok: false; status: number; error: string };

const TEXTS = WEBHOOK_TEXTS.errors;
const refuse = <T>(status: number, error: string): WebhookResult<T> => ({
  ok: false,
  status,
  error,
});
const ok = <T>(value: T): WebhookResult<T> => ({ ok: true, value });
/** What the audit trail says of an endpoint: never its secret. */
const described = (endpoint: WebhookEndpointRecord) => ({
  id: endpoint.publicId,
  scope: endpoint.scope,
  url: endpoint.url,
});

/**
 * The rules of webhook endpoints (issue 30, part 3): a user manages their own; an admin also
 * those for everyone's events (scope 'all'), which any admin may manage. Someone else's endpoint
 * is "not found", whether it exists or not. Every change is recorded in the audit trail, by the
 * caller's name, with the endpoint's owner as its target.
 */
export class WebhookService {
  private readonly wake: () => void;
  private readonly now: () => Date;
  private readonly audit: AuditTrail;

  constructor(
    private readonly repo: WebhookRepository,
    options: WebhookServiceOptions = {},
  ) {
    this.wake = options.wake ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
    this.audit = options.audit ?? noAuditTrail;
  }

  async list(
    caller: WebhookCaller,
    scope: WebhookScope,
  ): Promise<WebhookResult<WebhookEndpoint[]>> {
    if (scope === 'all' && !caller.admin) return refuse(403, TEXTS.adminOnly);
    const records = await this.repo.list(caller.owner.id, scope);
    const now = this.now();
    return ok(records.map((record) => endpointView(record, now)));
  }

  async create(
    caller: WebhookCaller,
    request: WebhookCreate,
  ): Promise<WebhookResult<WebhookCreated>> {
    if (request.scope === 'all' && !caller.admin) return refuse(403, TEXTS.adminOnly);
    if (
      request.scope === 'own' &&
      (await this.repo.countOwn(caller.owner.id)) >= MAX_WEBHOOKS_PER_USER
    ) {
      return refuse(409, TEXTS.tooMany(MAX_WEBHOOKS_PER_USER));
    }
    const secret = newWebhookSecret();
    const record = await this.repo.create(
      {
        publicId: `ep_${randomBytes(12).toString('base64url')}`,
        ownerId: caller.owner.id,
        scope: request.scope,
        url: request.url,
        events: [...new Set(request.events)],
        active: request.active,
        secret,
      },
      this.now(),
    );
    await this.note(caller, 'webhook-created', record, {
      events: record.events,
      active: record.active,
    });
    return ok({ endpoint: endpointView(record, this.now()), secret });
  }

  async update(
    caller: WebhookCaller,
    id: string,
    changes: WebhookUpdate,
  ): Promise<WebhookResult<WebhookEndpoint>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint) return refuse(404, TEXTS.notFound);
    const updated = await this.repo.update(
      endpoint.id,
      {
        ...(changes.url !== undefined && { url: changes.url }),
        ...(changes.events !== undefined && { events: [...new Set(changes.events)] }),
        ...(changes.active !== undefined && { active: changes.active }),
      },
      this.now(),
    );
    if (!updated) return refuse(404, TEXTS.notFound);
    const changed = changedFields(endpoint, updated);
    if (Object.keys(changed).length > 0)
      await this.note(caller, 'webhook-changed', updated, { changes: changed });
    // Resumed: what waited while it was paused may go now.
    if (changes.active) this.wake();
    return ok(endpointView(updated, this.now()));
  }

  async remove(caller: WebhookCaller, id: string): Promise<WebhookResult<null>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint || !(await this.repo.remove(endpoint.id))) return refuse(404, TEXTS.notFound);
    await this.note(caller, 'webhook-removed', endpoint);
    return ok(null);
  }

  /**
   * A new signing secret, answered this once. For WEBHOOK_SECRET_GRACE_HOURS the replaced one
   * signs every delivery too (a second signature), so the receiver can switch without refusing any.
   */
  async rotateSecret(caller: WebhookCaller, id: string): Promise<WebhookResult<WebhookRotated>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint) return refuse(404, TEXTS.notFound);
    const secret = newWebhookSecret();
    const now = this.now();
    const until = new Date(now.getTime() + WEBHOOK_SECRET_GRACE_HOURS * HOUR_MS);
    const rotated = await this.repo.rotateSecret(endpoint.id, secret, until, now);
    if (!rotated) return refuse(404, TEXTS.notFound);
    await this.note(caller, 'webhook-secret-rotated', rotated, {
      previousSecretUntil: until.toISOString(),
    });
    return ok({ endpoint: endpointView(rotated, now), secret });
  }

  async deliveries(caller: WebhookCaller, id: string): Promise<WebhookResult<WebhookDelivery[]>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint) return refuse(404, TEXTS.notFound);
    const records = await this.repo.deliveries(endpoint.id, WEBHOOK_DELIVERIES_SHOWN);
    return ok(records.map(deliveryView));
  }

  /** Queues a `webhook.test` event to this endpoint alone (paused or not, it goes when active). */
  async sendTest(caller: WebhookCaller, id: string): Promise<WebhookResult<WebhookDelivery>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint) return refuse(404, TEXTS.notFound);
    const now = this.now();
    const payload: WebhookPayload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      data: { endpoint: endpoint.publicId },
    };
    const record = await this.repo.enqueueOne(
      endpoint.id,
      {
        type: WEBHOOK_TEST_EVENT,
        ownerId: caller.owner.id,
        messageId: `msg_test_${randomBytes(12).toString('base64url')}`,
        body: JSON.stringify(payload),
      },
      now,
    );
    this.wake();
    return ok(deliveryView(record));
  }

  async resend(
    caller: WebhookCaller,
    id: string,
    deliveryId: string,
  ): Promise<WebhookResult<WebhookDelivery>> {
    const endpoint = await this.reachable(caller, id);
    if (!endpoint) return refuse(404, TEXTS.notFound);
    const number = /^[1-9][0-9]{0,15}$/.test(deliveryId) ? Number(deliveryId) : undefined;
    const record = number && (await this.repo.resend(endpoint.id, number, this.now()));
    if (!record) return refuse(404, TEXTS.deliveryNotFound);
    this.wake();
    return ok(deliveryView(record));
  }

  private note(
    caller: WebhookCaller,
    action: 'webhook-created' | 'webhook-changed' | 'webhook-removed' | 'webhook-secret-rotated',
    endpoint: WebhookEndpointRecord,
    more: Record<string, unknown> = {},
  ): Promise<void> {
    return this.audit.note({
      actor: {
        name: caller.owner.username,
        ...(caller.address !== undefined && { address: caller.address }),
      },
      action,
      target: endpoint.ownerName,
      details: { ...described(endpoint), ...more },
    });
  }

  /** The endpoint if this caller may manage it. */
  private async reachable(
    caller: WebhookCaller,
    id: string,
  ): Promise<WebhookEndpointRecord | undefined> {
    const endpoint = await this.repo.find(id);
    if (!endpoint) return undefined;
    if (endpoint.scope === 'all') return caller.admin ? endpoint : undefined;
    return endpoint.ownerId === caller.owner.id ? endpoint : undefined;
  }
}

/** What an update changed, each as `{ from, to }`. */
function changedFields(before: WebhookEndpointRecord, after: WebhookEndpointRecord) {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  if (before.url !== after.url) changed.url = { from: before.url, to: after.url };
  if (before.events.join(' ') !== after.events.join(' '))
    changed.events = { from: before.events, to: after.events };
  if (before.active !== after.active) changed.active = { from: before.active, to: after.active };
  return changed;
}

function endpointView(record: WebhookEndpointRecord, now: Date): WebhookEndpoint {
  const until = record.previousSecretUntil;
  return {
    id: record.publicId,
    url: record.url,
    events: record.events,
    active: record.active,
    scope: record.scope,
    owner: record.ownerName,
    createdAt: record.createdAt,
    // Past its grace, a replaced secret signs nothing, even before the pruning forgets it.
    previousSecretUntil: until !== null && Date.parse(until) > now.getTime() ? until : null,
  };
}

function deliveryView(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: String(record.id),
    messageId: record.messageId,
    type: record.type,
    createdAt: record.createdAt,
    state: record.state,
    attempts: record.attempts,
    nextAttemptAt: record.state === 'pending' ? record.nextAttemptAt : null,
  };
}
