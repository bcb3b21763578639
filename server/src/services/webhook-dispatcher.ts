import type { Logger } from 'pino';
import type { Timers } from '../runtime/timers.js';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  WebhookDeliveryQueue,
  WebhookSender,
} from './webhook-ports.js';
import { nextWebhookAttempt } from './webhook-schedule.js';
import { signedHeaders } from './webhook-signature.js';

export interface WebhookDispatcherOptions {
  /** This process's name on the deliveries it holds (unique to this run: a lease holder). */
  holder: string;
  /** How long a claim holds a delivery: well past the request's deadline. */
  leaseMs: number;
  /** How often due deliveries are looked for besides being woken (other processes' events, retries). */
  pollMs: number;
  /** Deliveries claimed and sent at once. */
  batch: number;
}

export const DEFAULT_WEBHOOK_DISPATCH: Omit<WebhookDispatcherOptions, 'holder'> = {
  leaseMs: 60_000,
  pollMs: 2_000,
  batch: 8,
};

/**
 * Sends the deliveries the store holds (issue 30, part 3), in every process that runs jobs: each
 * claims due ones under a lease, so several processes deliver each once; a process that dies
 * mid-send leaves its lease to expire and another sends again (same webhook-id). The clock and the
 * timers are a port: tests move time on to see the retries instead of waiting for them.
 */
export class WebhookDispatcher {
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopped = false;
  private woken = false;

  constructor(
    private readonly queue: WebhookDeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly timers: Timers,
    private readonly log: Logger,
    private readonly options: WebhookDispatcherOptions,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Looks for due deliveries at once (an event was recorded here), not at the next poll. */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.woken = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops looking; waits for the tries under way to be saved. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  /** Sends every delivery due now, batch after batch; how many were tried. */
  async deliverDue(): Promise<number> {
    let tried = 0;
    for (;;) {
      const now = this.timers.now();
      const claimed = await this.queue.claim(
        this.options.holder,
        this.options.leaseMs,
        this.options.batch,
        now,
      );
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      tried += claimed.length;
      if (claimed.length < this.options.batch || this.stopped) return tried;
    }
  }

  private schedule(ms: number): void {
    this.cancel?.();
    this.cancel = this.timers.after(ms, this.tick);
  }

  private readonly tick = async (): Promise<void> => {
    if (this.stopped || this.running) return;
    this.cancel = undefined;
    this.woken = false;
    const run = this.deliverDue()
      .then(() => undefined)
      .catch((err: unknown) => {
        // The store did not answer: the next poll tries again; leases keep what was claimed.
        this.log.warn({ err }, 'webhook deliveries: store call failed');
      });
    this.running = run;
    await run;
    this.running = undefined;
    if (!this.stopped) this.schedule(this.woken ? 0 : this.options.pollMs);
  };

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const at = this.timers.now();
    const headers = {
      'content-type': 'application/json',
      ...signedHeaders(secretsAt(delivery, at), delivery.messageId, at, delivery.body),
    };
    const response = await this.sender.send(delivery.url, headers, delivery.body);
    const now = this.timers.now();
    const outcome = this.outcomeOf(delivery, response.error === null, now);
    if (outcome.state !== 'delivered') {
      this.log.info(
        {
          delivery: delivery.id,
          type: delivery.type,
          status: response.status,
          error: response.error,
        },
        'webhook delivery failed',
      );
    }
    const held = await this.queue.settle(
      delivery.id,
      this.options.holder,
      { at: at.toISOString(), status: response.status, error: response.error },
      outcome,
      now,
    );
    if (!held) this.log.warn({ delivery: delivery.id }, 'webhook delivery settled after its lease');
  }

  private outcomeOf(delivery: ClaimedDelivery, ok: boolean, now: Date): DeliveryOutcome {
    if (ok) return { state: 'delivered' };
    const next = nextWebhookAttempt(new Date(delivery.windowStart), delivery.attempts + 1, now);
    return next ? { state: 'pending', nextAttemptAt: next } : { state: 'failed' };
  }
}

/** The secrets a try at `at` is signed with: the current one, and a replaced one in its grace. */
function secretsAt(delivery: ClaimedDelivery, at: Date): string[] {
  const previous = delivery.previousSecret;
  return previous && Date.parse(previous.until) > at.getTime()
    ? [delivery.secret, previous.secret]
    : [delivery.secret];
}
