import type { WebhookScope } from '@tessera/contract';

/** The endpoints of a scope, and one endpoint's deliveries, in the query cache. */
export const webhooksKey = (scope: WebhookScope) => ['webhooks', scope] as const;
export const deliveriesKey = (id: string) => ['webhooks', 'deliveries', id] as const;

/** While an endpoint's deliveries are shown, they are read again this often (results arrive). */
export const DELIVERIES_REFRESH_MS = 2000;
