import type { Logger } from 'pino';
import type { JobRunner } from './jobs/runner.js';
import { createWebhookSender } from './outbound/webhook-sender.js';
import type { Timers } from './runtime/timers.js';
import {
  DEFAULT_WEBHOOK_DISPATCH,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './services/webhook-dispatcher.js';
import type { AuditTrail } from './services/audit.js';
import type { WebhookSender } from './services/webhook-ports.js';
import { WebhookPruning } from './services/webhook-pruning.js';
import { WebhookService } from './services/webhooks.js';
import type { Db } from './store/database.js';
import { createWebhookDeliveryPruner } from './store/webhook-pruning.js';
import { createWebhookDeliveryQueue, createWebhookRepository } from './store/webhooks.js';

/** Parts of the webhooks a test may replace. */
export interface WebhookOverrides {
  /** How webhook deliveries are sent (a test's stand-in); unset: HTTP with fetch. */
  webhookSender?: WebhookSender;
  /** The webhook dispatcher's lease, poll and batch; unset: DEFAULT_WEBHOOK_DISPATCH. */
  webhookDispatch?: Partial<Omit<WebhookDispatcherOptions, 'holder'>>;
}

/** What the webhooks' parts are given by the container. */
export interface WebhookPartsSettings {
  log: Logger;
  holder: string;
  /** The clock of the retries, the pruning and a rotation's grace. */
  timers: Timers;
  audit: AuditTrail;
  /** How long settled deliveries are kept (WEBHOOK_DELIVERY_RETENTION_DAYS). */
  retentionDays: number;
}

/**
 * The webhooks (issue 30, part 3): the endpoints' service, the dispatcher that sends the
 * deliveries, woken when a job ends in this process (its deliveries were recorded with the end),
 * and the pruning of old deliveries.
 */
export function buildWebhookParts(
  db: Db,
  jobs: Pick<JobRunner, 'onChange'>,
  { log, holder, timers, audit, retentionDays }: WebhookPartsSettings,
  overrides: WebhookOverrides,
): { service: WebhookService; dispatcher: WebhookDispatcher; pruning: WebhookPruning } {
  const dispatcher = new WebhookDispatcher(
    createWebhookDeliveryQueue(db),
    overrides.webhookSender ?? createWebhookSender(),
    timers,
    log,
    { holder, ...DEFAULT_WEBHOOK_DISPATCH, ...overrides.webhookDispatch },
  );
  jobs.onChange((job) => {
    if (job.status === 'finished' || job.status === 'error') dispatcher.wake();
  });
  const service = new WebhookService(createWebhookRepository(db), {
    wake: () => dispatcher.wake(),
    now: () => timers.now(),
    audit,
  });
  const pruning = new WebhookPruning(createWebhookDeliveryPruner(db), timers, retentionDays, log);
  return { service, dispatcher, pruning };
}
