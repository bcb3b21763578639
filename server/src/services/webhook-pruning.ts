import { WEBHOOK_DELIVERIES_SHOWN } from '@tessera/contract';
import type { Logger } from 'pino';
import type { Timers } from '../runtime/timers.js';
import type { WebhookDeliveryPruner } from './webhook-ports.js';

/** How long settled deliveries are kept by default (WEBHOOK_DELIVERY_RETENTION_DAYS). */
export const DEFAULT_WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
/** How often the pruning runs, after its run at start. */
export const WEBHOOK_PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rows one statement deletes at most. */
export const WEBHOOK_PRUNE_BATCH = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the webhook deliveries from growing without bound (issue 30, part 3): in every process
 * that sends deliveries, at start and then every hour on the timers' clock, removes the settled
 * deliveries (delivered or failed) last changed more than `retentionDays` ago, with their
 * attempts, keeping each endpoint's latest WEBHOOK_DELIVERIES_SHOWN (what its list shows);
 * pending deliveries stay whatever their age. It also forgets replaced secrets past their grace.
 * Several processes may prune at once: the deletion is the same whoever runs it.
 */
export class WebhookPruning {
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pruner: WebhookDeliveryPruner,
    private readonly timers: Timers,
    private readonly retentionDays: number,
    private readonly log: Logger,
    private readonly everyMs = WEBHOOK_PRUNE_EVERY_MS,
  ) {}

  start(): void {
    if (this.cancel || this.stopped) return;
    this.cancel = this.timers.after(0, this.tick);
  }

  /** Stops the schedule; waits for a pruning under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  /** One pruning at the timers' now; how many deliveries went. A failure is logged, not thrown. */
  async runOnce(): Promise<number> {
    const now = this.timers.now();
    const cutoff = new Date(now.getTime() - this.retentionDays * DAY_MS);
    try {
      const removed = await this.pruner.removeSettledBefore(
        cutoff,
        WEBHOOK_DELIVERIES_SHOWN,
        WEBHOOK_PRUNE_BATCH,
      );
      const forgotten = await this.pruner.forgetPreviousSecrets(now);
      if (removed > 0 || forgotten > 0) {
        this.log.info(
          { removed, forgottenSecrets: forgotten, days: this.retentionDays },
          'webhook deliveries pruned',
        );
      }
      return removed;
    } catch (err) {
      // The next run tries again; nothing is half done (each batch is one statement).
      this.log.warn({ err }, 'webhook deliveries not pruned');
      return 0;
    }
  }

  private readonly tick = async (): Promise<void> => {
    if (this.stopped) return;
    const run = this.runOnce().then(() => undefined);
    this.running = run;
    await run;
    this.running = undefined;
    if (!this.stopped) this.cancel = this.timers.after(this.everyMs, this.tick);
  };
}
