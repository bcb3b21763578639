import type { Logger } from 'pino';
import type { Timers } from '../runtime/timers.js';
import type { HdRetentionService } from './hd-retention.js';

/** How often a process looks whether today's run is done; the first to look after midnight runs it. */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;

/**
 * Runs the HD retention policy daily in every process that runs jobs; the day's claim in the
 * database (HdRetentionService.runDaily) makes it one run per day however many processes share
 * it. Checks at start, then every RETENTION_CHECK_MS.
 */
export class HdRetentionSchedule {
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly service: HdRetentionService,
    private readonly timers: Timers,
    /** This process's name in the day's claim (a lease holder: unique to this run). */
    private readonly holder: string,
    private readonly log: Logger,
    private readonly checkMs = RETENTION_CHECK_MS,
  ) {}

  start(): void {
    if (!this.service.enabled || this.cancel) return;
    this.cancel = this.timers.after(0, this.tick);
  }

  /** Stops checking; waits for a run under way to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.running;
  }

  private readonly tick = async (): Promise<void> => {
    if (this.stopped) return;
    const run = this.service
      .runDaily(this.timers.now(), this.holder)
      .then(() => undefined)
      .catch((err: unknown) => {
        // The next check tries again; the rows a failed run left pending are in its plan.
        this.log.warn({ err }, 'HD retention run failed');
      });
    this.running = run;
    await run;
    if (!this.stopped) this.cancel = this.timers.after(this.checkMs, this.tick);
  };
}
