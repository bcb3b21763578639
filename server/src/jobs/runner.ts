import type { Logger } from 'pino';
import { noMetrics, type Metrics } from '../runtime/metrics.js';
import { ServerStopping } from '../runtime/shutdown.js';
import { JOB_KINDS, type JobKind, type JobOrder, type JobRecord } from './job.js';
import { runHandler } from './job-run.js';
import { LeaseKeeper } from './lease-keeper.js';
import type { JobQueue } from './queue.js';
import { JobCancelled, runOutcome, type RunDeps } from './run-ends.js';
import { settleFailure, settleSuccess } from './run-outcome.js';
import type {
  JobHandler,
  JobHandlers,
  JobListener,
  JobPolicies,
  JobPolicy,
  JobScheduler,
  RunnerOptions,
} from './runner-types.js';
import { DEFAULT_STORE_RETRY, StoreCalls } from './store-backoff.js';

export {
  exponentialBackoff,
  PermanentJobError,
  type JobContext,
  type JobHandler,
  type JobHandlers,
  type JobListener,
  type JobPolicies,
  type JobPolicy,
  type JobScheduler,
  type RunnerOptions,
} from './runner-types.js';

const DEFAULT_POLL_MS = 500;

/**
 * The persistent queue's runner: claims jobs atomically, runs each kind with its concurrency,
 * retries with backoff. While a job runs it renews the job's lease (a heartbeat every third of
 * the term, at most every 2 s) and stops the run if the lease was lost or the job cancelled
 * elsewhere; it puts back jobs whose holder stopped renewing, and (SQLite) at start what a crash
 * left in progress. It claims when the queue says there is work, at the `run_after` of the next
 * retry, and on a slow fallback poll.
 */
export class JobRunner implements JobScheduler {
  private handlers: JobHandlers | undefined;
  private readonly running = new Map<JobKind, Set<Promise<void>>>();
  private readonly controllers = new Map<number, AbortController>();
  private readonly listeners = new Set<JobListener>();
  private readonly pumping = new Set<JobKind>();
  /** A kind woken while its pump ran: the pump looks once more before it ends. */
  private readonly wokenWhilePumping = new Set<JobKind>();
  private readonly retryTimers = new Map<JobKind, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => Promise<void>) | undefined;
  private stopped = false;
  private readonly pollMs: number;
  private readonly requeueAtStart: boolean;
  /** Every store call of the runner, spaced by one backoff while the store fails. */
  private readonly store: StoreCalls;
  private readonly metrics: Metrics;
  /** What a run's parts (job-run.ts, run-outcome.ts, lease-keeper.ts) share with the runner. */
  private readonly deps: RunDeps;
  private readonly leases: LeaseKeeper;

  constructor(
    private readonly jobs: JobQueue,
    private readonly policies: JobPolicies,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
    options: RunnerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.requeueAtStart = options.requeueAtStart ?? true;
    this.store = new StoreCalls(options.storeRetry ?? DEFAULT_STORE_RETRY, log);
    this.metrics = options.metrics ?? noMetrics;
    this.deps = {
      jobs,
      store: this.store,
      log,
      now,
      emit: (job) => this.emit(job),
      stopped: () => this.stopped,
    };
    this.leases = new LeaseKeeper(this.deps, this.controllers);
  }

  onChange(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts claiming with these handlers. Handlers come here rather than to the constructor:
   * the services that own them are built with the runner as their scheduler.
   */
  async start(handlers: JobHandlers): Promise<void> {
    // The types demand every handler; this refuses what slipped past them (a cast, plain JS).
    for (const kind of JOB_KINDS) {
      if (typeof handlers[kind] !== 'function') {
        throw new Error(`No handler for jobs of kind '${kind}'`);
      }
    }
    this.handlers = handlers;
    if (this.requeueAtStart) {
      for (const job of await this.jobs.requeueInterrupted(this.now())) {
        this.log.info(
          { job: job.id, kind: job.kind, status: job.status },
          'job interrupted by a restart',
        );
        this.emit(job);
      }
    }
    this.unwatch = await this.jobs.watch((kind) => this.wake(kind));
    this.timer = setInterval(() => this.wakeAll(), this.pollMs);
    this.timer.unref();
    await this.leases.start();
    this.wakeAll();
  }

  async enqueue<K extends JobKind>(job: JobOrder<K>): Promise<JobRecord<K> | undefined> {
    // Undefined only for a kind from outside the type (a cast, plain JS).
    const kind = this.policies[job.kind] as JobPolicy | undefined;
    if (!kind) throw new Error(`No handler for jobs of kind '${job.kind}'`);
    const record = await this.jobs.enqueue<K>(
      {
        ...job,
        maxAttempts: kind.maxAttempts,
        ...(kind.maxLivePerOwner !== undefined && { maxLivePerOwner: kind.maxLivePerOwner }),
        ...(kind.ownerQuota !== undefined && { ownerQuota: kind.ownerQuota }),
      },
      this.now(),
    );
    // The queue's watch wakes the runner to claim it.
    if (record) this.emit(record);
    return record;
  }

  /** Stops claiming, aborts the running jobs (they return to the queue) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.store.stop();
    clearInterval(this.timer);
    this.leases.stop();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    for (const controller of this.controllers.values()) controller.abort(new ServerStopping());
    await Promise.all([...this.running.values()].flatMap((set) => [...set]));
    await this.unwatch?.();
  }

  abortCancelled(ids: readonly number[]): void {
    for (const id of ids) this.controllers.get(id)?.abort(new JobCancelled('Cancelled'));
  }

  wake(kind: JobKind): void {
    void this.pump(kind);
  }

  private wakeAll(): void {
    for (const kind of JOB_KINDS) void this.pump(kind);
  }

  private async pump<K extends JobKind>(kind: K): Promise<void> {
    if (this.stopped) return;
    if (this.pumping.has(kind)) {
      this.wokenWhilePumping.add(kind);
      return;
    }
    const config = this.policies[kind];
    // Jobs queued before start wait for it: the handlers come with it.
    const handler: JobHandler<K> | undefined = this.handlers?.[kind];
    if (!handler) return;
    if (this.store.wait() > 0) {
      this.wakeAfter(kind, this.store.wait());
      return;
    }
    this.pumping.add(kind);
    try {
      const running = this.running.get(kind) ?? new Set<Promise<void>>();
      this.running.set(kind, running);
      let idle = false;
      do {
        this.wokenWhilePumping.delete(kind);
        while (!this.stopped && running.size < config.concurrency) {
          const job = await this.store.once('claiming a job', () =>
            this.jobs.claim<K>(kind, this.now()),
          );
          if (!job) {
            idle = true;
            break;
          }
          this.emit(job);
          this.log.info({ job: job.id, kind: job.kind, publicId: job.publicId }, 'job started');
          // execute settles every outcome itself and never rejects; the catch is for a bug.
          const run = this.execute(job, config, handler)
            .catch((err: unknown) => this.log.error({ err, job: job.id }, 'job run failed'))
            .finally(() => {
              running.delete(run);
              void this.pump(kind);
            });
          running.add(run);
        }
      } while (this.wokenWhilePumping.has(kind) && !this.stopped);
      if (idle) await this.wakeAtNextRunAfter(kind);
    } catch {
      // Logged by stored: look again once the backoff has passed.
      this.wakeAfter(kind, this.store.wait());
    } finally {
      this.pumping.delete(kind);
    }
  }

  /**
   * Nothing to claim now: wake at the time the next retry of the kind may run, when that comes
   * before the next poll (no one announces a passing `run_after`).
   */
  private async wakeAtNextRunAfter(kind: JobKind): Promise<void> {
    const next = await this.store.once('reading the next retry time', () =>
      this.jobs.nextRunAfter(kind),
    );
    if (next === undefined || this.stopped) return;
    const delay = Date.parse(next) - this.now().getTime();
    if (delay <= 0 || delay >= this.pollMs) return;
    this.wakeAfter(kind, delay);
  }

  /** Pumps the kind after `delay` ms (the poll would too, but later). */
  private wakeAfter(kind: JobKind, delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimers.get(kind));
    const timer = setTimeout(() => {
      this.retryTimers.delete(kind);
      void this.pump(kind);
    }, delay);
    timer.unref();
    this.retryTimers.set(kind, timer);
  }

  private async execute<K extends JobKind>(
    job: JobRecord<K>,
    config: JobPolicy,
    handler: JobHandler<K>,
  ): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const started = performance.now();
    try {
      // The outcome is kept here until the store has it: an outage between the run and its
      // record loses nothing, and a finished run is never run again for a failed write. The
      // job's lease is renewed meanwhile (it stays in `controllers`).
      const outcome = await runHandler(this.deps, job, handler, controller);
      // The run's own time: a wait for the store to save it is not the engine's.
      const seconds = (performance.now() - started) / 1000;
      if (outcome.ok) {
        const saved = await settleSuccess(this.deps, job, outcome.output);
        this.metrics.jobRun(job.kind, saved ? 'finished' : 'lost', seconds);
      } else {
        const stoppedByShutdown = controller.signal.aborted && this.stopped;
        this.metrics.jobRun(job.kind, runOutcome(outcome.err, stoppedByShutdown), seconds);
        await settleFailure(this.deps, job, config, outcome.err, controller.signal.aborted);
      }
    } catch (err) {
      // Only a stop while the store is down gets here: the job comes back by its lease.
      this.log.error(
        { err, job: job.id, kind: job.kind },
        'job outcome not saved before the stop: the job runs again once its lease expires',
      );
    } finally {
      this.controllers.delete(job.id);
    }
  }

  private emit<K extends JobKind>(job: JobRecord<K>): void {
    // A job of kind K is a JobRecord; TypeScript does not see it through the generic.
    const record = job as JobRecord;
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch (err) {
        this.log.error({ err }, 'job listener failed');
      }
    }
  }
}
