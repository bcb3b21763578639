import type { RunDeps } from './run-ends.js';
import { LeaseLost } from './run-ends.js';

/**
 * The longest gap between lease renewals. A renewal is also how the runner learns that another
 * process cancelled a job it runs (the store renews only jobs still in progress), so a long
 * lease term does not make such a cancellation slow to stop the run. A cancellation made here
 * stops the job at once through abortCancelled.
 */
const MAX_RENEWAL_GAP_MS = 2000;

/**
 * Keeps the leases of the jobs running here: a heartbeat every third of the term (at most every
 * 2 s) renews them and stops the runs whose lease was lost, and puts back the jobs whose holder
 * stopped renewing (any process's, this one's after a stall).
 */
export class LeaseKeeper {
  private heartbeat: NodeJS.Timeout | undefined;
  private tending = false;

  /** `running`: the abort controller of each job running here, by job id. */
  constructor(
    private readonly deps: RunDeps,
    private readonly running: ReadonlyMap<number, AbortController>,
  ) {}

  /** Starts the heartbeat; resolves after a first beat. */
  start(): Promise<void> {
    // At most a third of the term: two renewals may fail (a slow database) before it runs out.
    const gap = Math.min(this.deps.jobs.lease.ms / 3, MAX_RENEWAL_GAP_MS);
    this.heartbeat = setInterval(() => void this.tend(), Math.max(1, gap));
    this.heartbeat.unref();
    return this.tend();
  }

  stop(): void {
    clearInterval(this.heartbeat);
  }

  async tend(): Promise<void> {
    // While the store is down the backoff spaces the tries; a lease outlives a short outage.
    if (this.deps.stopped() || this.tending || this.deps.store.wait() > 0) return;
    this.tending = true;
    try {
      const ids = [...this.running.keys()];
      // No call without ids: a call that reaches no store would end the backoff.
      const kept = new Set(
        ids.length === 0
          ? []
          : await this.deps.store.once('renewing job leases', () =>
              this.deps.jobs.renewLeases(ids, this.deps.now()),
            ),
      );
      for (const id of ids) {
        if (kept.has(id)) continue;
        this.deps.log.warn(
          { job: id },
          'job no longer held here (lease lost or cancelled): stopping it',
        );
        this.running.get(id)?.abort(new LeaseLost(`Job ${id} is no longer held here`));
      }
      const expired = await this.deps.store.once('putting back expired jobs', () =>
        this.deps.jobs.expireLeases(this.deps.now()),
      );
      for (const job of expired) {
        this.deps.log.warn(
          { job: job.id, kind: job.kind, status: job.status },
          'job whose process stopped renewing its lease put back',
        );
        this.deps.emit(job);
      }
    } catch {
      // Logged by stored; the next beat after the backoff tries again.
    } finally {
      this.tending = false;
    }
  }
}
