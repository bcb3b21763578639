import type {
  WEBHOOK_TEST_EVENT,
  WebhookAttemptError,
  WebhookDeliveryState,
  WebhookEventType,
  WebhookScope,
} from '@tessera/contract';

// The ports of the webhooks (issue 30, part 3): the endpoints and deliveries the store keeps, and
// how a delivery is sent. Implemented by store/webhooks.ts and outbound/webhook-sender.ts.

/** An event to tell, as the store fans it out to every endpoint that asked for it. */
export interface WebhookEventDraft {
  /** An event endpoints ask for, or the test event (sent to one endpoint only). */
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  /** Whose job it was: their own endpoints and those for everyone hear it. */
  ownerId: number;
  /** The `webhook-id`: one per event, the same for every endpoint and every try. */
  messageId: string;
  /** The JSON payload, exactly as it is signed and sent. */
  body: string;
}

/** What turns a job's end into events; the store calls it in the transaction of that end. */
export type JobEventsOf<J> = (job: J, now: Date) => readonly WebhookEventDraft[];

export interface WebhookEndpointRecord {
  id: number;
  publicId: string;
  ownerId: number;
  ownerName: string;
  scope: WebhookScope;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  secret: string;
  createdAt: string;
  /** Until when the secret a rotation replaced still signs too; null: none kept. */
  previousSecretUntil: string | null;
}

export interface NewWebhookEndpoint {
  publicId: string;
  ownerId: number;
  scope: WebhookScope;
  url: string;
  events: readonly WebhookEventType[];
  active: boolean;
  secret: string;
}

export interface WebhookAttemptRecord {
  at: string;
  status: number | null;
  error: WebhookAttemptError | null;
}

export interface WebhookDeliveryRecord {
  id: number;
  endpointId: number;
  messageId: string;
  type: string;
  state: WebhookDeliveryState;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: WebhookAttemptRecord[];
}

export interface WebhookRepository {
  /** One owner's endpoints of a scope ('all': every admin's for everyone), oldest first. */
  list(ownerId: number, scope: WebhookScope): Promise<WebhookEndpointRecord[]>;
  /** How many endpoints of its own scope this owner has. */
  countOwn(ownerId: number): Promise<number>;
  create(endpoint: NewWebhookEndpoint, now: Date): Promise<WebhookEndpointRecord>;
  find(publicId: string): Promise<WebhookEndpointRecord | undefined>;
  update(
    id: number,
    changes: { url?: string; events?: readonly WebhookEventType[]; active?: boolean },
    now: Date,
  ): Promise<WebhookEndpointRecord | undefined>;
  /**
   * A new signing secret; the current one becomes the previous one, signing too until
   * `previousUntil` (an older previous one is forgotten). Undefined when the endpoint is gone.
   */
  rotateSecret(
    id: number,
    secret: string,
    previousUntil: Date,
    now: Date,
  ): Promise<WebhookEndpointRecord | undefined>;
  /** Removes the endpoint and its deliveries; false when it was gone. */
  remove(id: number): Promise<boolean>;
  /** The endpoint's latest deliveries with their attempts, newest first. */
  deliveries(endpointId: number, limit: number): Promise<WebhookDeliveryRecord[]>;
  /** A delivery to this endpoint alone (the test event), due now. */
  enqueueOne(
    endpointId: number,
    event: WebhookEventDraft,
    now: Date,
  ): Promise<WebhookDeliveryRecord>;
  /** Records events for every endpoint that asked for them (outside a job's end). */
  recordEvents(events: readonly WebhookEventDraft[], now: Date): Promise<void>;
  /** The delivery goes again now, with a fresh day of retries; undefined when not this endpoint's. */
  resend(
    endpointId: number,
    deliveryId: number,
    now: Date,
  ): Promise<WebhookDeliveryRecord | undefined>;
}

/** A delivery this process holds (its lease) and sends now. */
export interface ClaimedDelivery {
  id: number;
  messageId: string;
  type: string;
  body: string;
  url: string;
  secret: string;
  /** The secret a rotation replaced and until when it signs too (the sender compares). */
  previousSecret: { secret: string; until: string } | null;
  /** Tries made before this one. */
  attempts: number;
  /** Retries go on until a day after this (creation, or the last resend). */
  windowStart: string;
}

/** What a try ended as: delivered, due again at a time, or given up. */
export type DeliveryOutcome =
  { state: 'delivered' } | { state: 'pending'; nextAttemptAt: Date } | { state: 'failed' };

export interface WebhookDeliveryQueue {
  /**
   * Takes up to `limit` due deliveries (pending and due, or sending under an expired lease) of
   * active endpoints, each for exactly one claimer, under a lease until `now + leaseMs`.
   */
  claim(holder: string, leaseMs: number, limit: number, now: Date): Promise<ClaimedDelivery[]>;
  /** Saves a try and what follows; false when this holder no longer held the delivery. */
  settle(
    id: number,
    holder: string,
    attempt: WebhookAttemptRecord,
    outcome: DeliveryOutcome,
    now: Date,
  ): Promise<boolean>;
}

/** Keeps the webhook tables from growing without bound (services/webhook-pruning.ts). */
export interface WebhookDeliveryPruner {
  /**
   * Removes the settled deliveries (delivered or failed) last changed before `cutoff`, with their
   * attempts, except each endpoint's latest `keepLatest` (what its deliveries list shows), in
   * batches of `batch` rows; how many went. Pending and sending deliveries stay.
   */
  removeSettledBefore(cutoff: Date, keepLatest: number, batch: number): Promise<number>;
  /** Forgets the replaced secrets whose grace ended before `now`; how many. */
  forgetPreviousSecrets(now: Date): Promise<number>;
}

/** What one HTTP try gave. */
export interface WebhookResponse {
  status: number | null;
  error: WebhookAttemptError | null;
}

/** Sends one signed request (no redirects followed, a deadline, a cap on what is read back). */
export interface WebhookSender {
  send(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
  ): Promise<WebhookResponse>;
}
