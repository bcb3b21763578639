// Webhooks (issue 30, part 3): endpoints a user (or an admin, for everyone) registers, the events
// they hear, the payloads they are sent, and the deliveries with their results. Deliveries are
// signed in the Standard Webhooks scheme (docs/api.md, "Webhooks").
import { z } from 'zod';

/** Every event a webhook can ask for. `webhook.test` is sent by "send test event" only. */
export const WEBHOOK_EVENT_TYPES = [
  'preview.finished',
  'preview.failed',
  'series.finished',
  'hd.finished',
  'hd.failed',
  'material-maps.ready',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** The test event's type: never subscribed to, sent to one endpoint on request. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The URL a webhook posts to: http(s), no credentials in it, at most 2,000 characters. */
export const WEBHOOK_URL_MAX = 2000;
export function isWebhookUrl(value: string): boolean {
  if (value.length > WEBHOOK_URL_MAX) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}
const webhookUrlSchema = z.string().trim().refine(isWebhookUrl);

/** Who hears an endpoint's events: its owner's own, or (an admin's) every user's. */
export const WEBHOOK_SCOPES = ['own', 'all'] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];

/** The most endpoints one user may register (an admin's for everyone count apart). */
export const MAX_WEBHOOKS_PER_USER = 20;

/** How a delivery stands: waiting (its first try or a retry), being sent, done, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const webhookEndpointSchema = z.object({
  /** The endpoint's public id (`ep_…`). */
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  active: z.boolean(),
  scope: z.enum(WEBHOOK_SCOPES),
  /** Who registered it. */
  owner: z.string(),
  createdAt: z.string(),
  /**
   * After a secret rotation: until when deliveries are still signed with the replaced secret too
   * (besides the new one); null when they are signed with the current secret alone.
   */
  previousSecretUntil: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** POST: a new endpoint. `scope: 'all'` is an admin's only. */
export const webhookCreateSchema = z.object({
  url: webhookUrlSchema,
  events: z.array(webhookEventTypeSchema).min(1),
  active: z.boolean().default(true),
  scope: z.enum(WEBHOOK_SCOPES).default('own'),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

/** PUT: what changes (at least one field). */
export const webhookUpdateSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: z.array(webhookEventTypeSchema).min(1).optional(),
    active: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0);
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

/** The answer of a creation: the endpoint and its signing secret, shown this once. */
export const webhookCreatedSchema = z.object({
  endpoint: webhookEndpointSchema,
  /** `whsec_<base64>`: the key of the HMAC-SHA256 signatures; the server never shows it again. */
  secret: z.string(),
});
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/**
 * How long deliveries carry a signature made with the replaced secret too, after a rotation:
 * time to give the receiver the new secret without refusing a delivery meanwhile.
 */
export const WEBHOOK_SECRET_GRACE_HOURS = 24;

/** POST rotate-secret's answer: the endpoint (with `previousSecretUntil`) and the new secret, shown once. */
export const webhookRotatedSchema = webhookCreatedSchema;
export type WebhookRotated = WebhookCreated;

/** GET ?scope=: the signed-in user's endpoints (own), or the admins' for everyone (all). */
export const webhookListQuerySchema = z.object({ scope: z.enum(WEBHOOK_SCOPES).default('own') });
export const webhookListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** Why a try did not count as delivered (the screen's texts: WEBHOOK_TEXTS.attemptErrors). */
export const WEBHOOK_ATTEMPT_ERRORS = [
  'timeout',
  'refused',
  'redirect',
  'status',
  'network',
] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

/** One try at sending a delivery. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when none came (refused, timed out). */
  status: z.number().int().nullable(),
  /** Why it did not count as delivered; null on success (a 2xx answer). */
  error: z.enum(WEBHOOK_ATTEMPT_ERRORS).nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  /** The delivery's public id (`dl_…`), for resend. */
  id: z.string(),
  /** The `webhook-id` header: the same for every try, so a receiver can drop repeats. */
  messageId: z.string(),
  type: z.string(),
  createdAt: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.array(webhookAttemptSchema),
  /** When the next try goes, while pending; null otherwise (or due now). */
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** The latest deliveries of one endpoint, newest first. */
export const webhookDeliveriesSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
export type WebhookDeliveries = z.infer<typeof webhookDeliveriesSchema>;
/** How many deliveries the list shows. */
export const WEBHOOK_DELIVERIES_SHOWN = 50;

// The payloads: `{ type, timestamp, data }`, with ids and file names the API knows.
const user = z.string().describe('The username whose job it was.');
const jobId = z.string().describe("The job's public id, as the status routes name it.");

export const webhookPayloadSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('preview.finished'),
    timestamp: z.string(),
    data: z.object({ user, jobId, filename: z.string() }),
  }),
  z.object({
    type: z.literal('series.finished'),
    timestamp: z.string(),
    data: z.object({
      user,
      jobId,
      seriesId: z.string(),
      faces: z.number().int(),
      filenames: z.array(z.string()),
    }),
  }),
  z.object({
    type: z.literal('preview.failed'),
    timestamp: z.string(),
    data: z.object({ user, jobId, faces: z.number().int(), error: z.string() }),
  }),
  z.object({
    type: z.literal('hd.finished'),
    timestamp: z.string(),
    data: z.object({ user, jobId, image: z.string(), size: z.string(), filename: z.string() }),
  }),
  z.object({
    type: z.literal('hd.failed'),
    timestamp: z.string(),
    data: z.object({ user, jobId, image: z.string(), size: z.string(), error: z.string() }),
  }),
  z.object({
    type: z.literal('material-maps.ready'),
    timestamp: z.string(),
    data: z.object({ user, jobId, kind: z.enum(['ld', 'hd']), image: z.string() }),
  }),
  z.object({
    type: z.literal(WEBHOOK_TEST_EVENT),
    timestamp: z.string(),
    data: z.object({ endpoint: z.string() }),
  }),
]);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
