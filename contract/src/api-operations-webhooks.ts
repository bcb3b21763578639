// The OpenAPI table of the webhooks API (issue 30, part 3; webhooks.ts). A member manages their
// own endpoints; an admin also those for every user's events (scope 'all').
import { BAD_REQUEST, JSON_BODY, json, refusal, type ApiOperation } from './api-operation.js';
import { API_ROUTES } from './routes.js';
import {
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookListQuerySchema,
  webhookListSchema,
  webhookRotatedSchema,
  webhookUpdateSchema,
  WEBHOOK_SECRET_GRACE_HOURS,
} from './webhooks.js';

const UNKNOWN = refusal(
  'No such endpoint of this user (an endpoint for everyone: no such one, or not an admin).',
);
const ADMIN_SCOPE = refusal("Scope 'all' is an admin's only.");

// Cookie-only (issue 30, part 1): an endpoint's secret is a credential, and an admin's endpoint
// hears every user's events; a token no more manages them than it manages tokens.
export const WEBHOOK_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'GET',
    path: API_ROUTES.webhooks,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: "The signed-in user's webhook endpoints, or (scope=all, admins) those for everyone",
    auth: 'session',
    query: webhookListQuerySchema,
    responses: {
      200: json(webhookListSchema, 'The endpoints, oldest first.'),
      400: BAD_REQUEST,
      403: ADMIN_SCOPE,
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.webhooks,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Answers the signing secret (`whsec_…`) once. Deliveries carry `webhook-id`, ' +
      '`webhook-timestamp` and `webhook-signature` (Standard Webhooks, docs/api.md).',
    auth: 'session',
    body: JSON_BODY(webhookCreateSchema),
    responses: {
      201: json(webhookCreatedSchema, 'Registered; the secret is shown this once.'),
      400: BAD_REQUEST,
      403: ADMIN_SCOPE,
      409: refusal('The user has as many endpoints as allowed.'),
    },
  },
  {
    method: 'PUT',
    path: API_ROUTES.webhook,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: "Change an endpoint's URL, events, or pause and resume it",
    auth: 'session',
    body: JSON_BODY(webhookUpdateSchema),
    responses: {
      200: json(webhookEndpointSchema, 'The endpoint as it now is.'),
      400: BAD_REQUEST,
      404: UNKNOWN,
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.webhookRemove,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: 'Remove an endpoint and its deliveries',
    auth: 'session',
    responses: { 204: { description: 'Removed.' }, 404: UNKNOWN },
  },
  {
    method: 'POST',
    path: API_ROUTES.webhookTest,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: 'Send a `webhook.test` event to this endpoint',
    auth: 'session',
    responses: { 202: json(webhookDeliverySchema, 'Queued.'), 404: UNKNOWN },
  },
  {
    method: 'GET',
    path: API_ROUTES.webhookDeliveries,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: "An endpoint's latest deliveries with each attempt's result, newest first",
    auth: 'session',
    responses: { 200: json(webhookDeliveriesSchema, 'The deliveries.'), 404: UNKNOWN },
  },
  {
    method: 'POST',
    path: API_ROUTES.webhookResend,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: 'Send a delivery again now',
    description: 'It keeps its `webhook-id`, so a receiver that saw it already can tell.',
    auth: 'session',
    responses: {
      200: json(webhookDeliverySchema, 'The delivery, due now.'),
      404: refusal('No such endpoint or delivery.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.webhookRotateSecret,
    scope: 'cookie-only',
    tag: 'Webhooks',
    summary: "Rotate an endpoint's signing secret",
    description:
      `Answers the new secret once. For ${WEBHOOK_SECRET_GRACE_HOURS} h (until the endpoint's ` +
      '`previousSecretUntil`) every delivery carries two signatures in `webhook-signature`, one ' +
      'made with the new secret and one with the replaced one, so a receiver still checking with ' +
      'the old secret keeps accepting them; then only the new one. Rotating again within that ' +
      'time replaces the older secret for good.',
    auth: 'session',
    responses: {
      200: json(webhookRotatedSchema, 'Rotated; the new secret is shown this once.'),
      404: UNKNOWN,
    },
  },
];
