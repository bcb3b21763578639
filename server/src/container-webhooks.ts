import type { Logger } from 'pino';
import type { JobRunner } from './jobs/runner.js';
import { createWebhookSender } from './outbound/webhook-sender.js';
import type { Timers } from './runtime/timers.js';
import {
  DEFAULT_WEBHOOK_DISPATCH,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './services/webhook-dispatcher.js';
import type { WebhookSender } from './services/webhook-ports.js';
import { WebhookService } from './services/webhooks.js';
import type { Db } from './store/database.js';
import { createWebhookDeliveryQueue, createWebhookRepository } from './store/webhooks.js';

/** Parts of the webhooks a test may replace. */
export interface WebhookOverrides {
  /** How webhook deliveries are sent (a test's stand-in); unset: HTTP with fetch. */
  webhookSender?: WebhookSender;
  /** The webhook dispatcher's lease, poll and batch; unset: DEFAULT_WEBHOOK_DISPATCH. */
  webhookDispatch?: Partial<Omit<WebhookDispatcherOptions, 'holder'>>;
}

/**
 * The webhooks (issue 30, part 3): the endpoints' service and the dispatcher that sends the
 * deliveries, woken when a job ends in this process (its deliveries were recorded with the end).
 */
export function buildWebhookParts(
  db: Db,
  jobs: Pick<JobRunner, 'onChange'>,
  { log, holder, timers }: { log: Logger; holder: string; timers: Timers },
  overrides: WebhookOverrides,
): { service: WebhookService; dispatcher: WebhookDispatcher } {
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
  const service = new WebhookService(createWebhookRepository(db), () => dispatcher.wake());
  return { service, dispatcher };
}
