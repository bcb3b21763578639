import {
  API_ROUTES,
  routeUrl,
  webhookCreatedSchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookListSchema,
  webhookRotatedSchema,
} from '@tessera/contract';
import type {
  WebhookCreate,
  WebhookCreated,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookRotated,
  WebhookScope,
  WebhookUpdate,
} from '@tessera/contract';
import { ACCEPT_ANY, expectAnswer, getJson, postJson, send } from './http';

/**
 * The webhooks API (issue 30, part 3; contract/webhooks.ts). A refusal rejects with an HttpError
 * carrying the contract's text, which the screens show as it is.
 */

export async function fetchWebhooks(scope: WebhookScope): Promise<WebhookEndpoint[]> {
  const path = `${API_ROUTES.webhooks}?scope=${scope}`;
  return (await getJson(path, webhookListSchema)).endpoints;
}

/** Answers the signing secret, this once. */
export async function createWebhook(request: WebhookCreate): Promise<WebhookCreated> {
  return expectAnswer(await postJson(API_ROUTES.webhooks, request), webhookCreatedSchema);
}

export async function updateWebhook(id: string, changes: WebhookUpdate): Promise<WebhookEndpoint> {
  const answer = await send(routeUrl(API_ROUTES.webhook, { id }), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(changes),
  });
  return expectAnswer(answer, webhookEndpointSchema);
}

export async function removeWebhook(id: string): Promise<void> {
  expectAnswer(await postJson(routeUrl(API_ROUTES.webhookRemove, { id })), ACCEPT_ANY);
}

export async function sendTestEvent(id: string): Promise<WebhookDelivery> {
  return expectAnswer(
    await postJson(routeUrl(API_ROUTES.webhookTest, { id })),
    webhookDeliverySchema,
  );
}

export async function fetchDeliveries(id: string): Promise<WebhookDelivery[]> {
  const path = routeUrl(API_ROUTES.webhookDeliveries, { id });
  return (await getJson(path, webhookDeliveriesSchema)).deliveries;
}

export async function resendDelivery(id: string, delivery: string): Promise<WebhookDelivery> {
  return expectAnswer(
    await postJson(routeUrl(API_ROUTES.webhookResend, { id, delivery })),
    webhookDeliverySchema,
  );
}

/** A new signing secret, answered this once; the replaced one signs too for a grace period. */
export async function rotateWebhookSecret(id: string): Promise<WebhookRotated> {
  return expectAnswer(
    await postJson(routeUrl(API_ROUTES.webhookRotateSecret, { id })),
    webhookRotatedSchema,
  );
}
