import type { ServerError, ServerErrorCode } from '@tessera/contract';
import type { Logger } from 'pino';
import { holdPoint } from '../runtime/faults.js';
import { noMetrics, type JobRunOutcome, type Metrics } from '../runtime/metrics.js';
import { withWaitingNotices } from '../runtime/waiting-notices.js';
import { readableError } from '../services/readable-error.js';
import { ServerStopping } from '../runtime/shutdown.js';
import {
  JOB_KINDS,
  type JobKind,
  type JobOrder,
  type JobRecord,
  type JobRemotePrompt,
} from './job.js';
import { JobNotHeldError, type JobQueue } from './queue.js';
import { DEFAULT_STORE_RETRY, StoreCalls, type StoreRetry } from './store-backoff.js';

export interface JobContext {
  /** Reports progress from 0 to 100; cheap to call often. */
  progress(percent: number): void;
  /**
   * Fires when the server stops (the job goes back to the queue) or the job is cancelled (its
   * image was deleted): the handler stops and writes nothing more.
   */
  signal: AbortSignal;
  /**
   * Notes the output name before the handler writes it. A rerun of the job (after a crash)
   * finds it as `job.output` and writes the same name again, so a rerun never adds a file.
   */
  reserveOutput(name: string): Promise<void>;
  /**
   * Remote prompts (ENGINE=comfyui): the one an earlier run of this job queued and did not see to
   * its end (a restart came between), and where the engine notes the one it queues now.
   */
  remote: { previous?: JobRemotePrompt; queued(prompt: JobRemotePrompt): Promise<void> };
}

/** A failure no retry can mend (the job's source is gone): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
  /** The refusal's code in the contract's table: its text is what the user reads. */
  readonly code: ServerErrorCode;

  constructor(refusal: ServerError) {
    super(refusal.text);
    this.code = refusal.code;
  }
}

/** The abort reason of a job cancelled while it ran. */
class JobCancelled extends Error {
  override name = 'JobCancelled';
}

/** The abort reason of a job this process no longer holds: its lease went to another, or it was cancelled. */
class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** Runs one job; resolves with its output (a file name). Throwing fails the attempt. */
export type JobHandler<K extends JobKind = JobKind> = (
  job: JobRecord<K>,
  context: JobContext,
) => Promise<string>;

/** How the runner treats one kind of job: its handler is given at start. */
export interface JobPolicy {
  /** Jobs of this kind running at once; CPU-heavy engines want 1. */
  concurrency: number;
  maxAttempts: number;
  /** Live (queued or running) jobs one owner may have of this kind; unset: no limit. */
  maxLivePerOwner?: number;
  /** Wait before attempt n + 1 after attempt n failed. */
  retryDelayMs(attempt: number): number;
}

/** Doubling backoff from `baseMs`, capped at `maxMs`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The handler of every kind of job, each typed by its kind's params. */
export type JobHandlers = { readonly [K in JobKind]: JobHandler<K> };

/** The policy of every kind of job. */
export type JobPolicies = Readonly<Record<JobKind, JobPolicy>>;

/**
 * What services ask of the runner (a port, so they never hold the runner itself): queue a job,
 * claim without waiting for the next poll, stop jobs the store has just cancelled.
 */
export interface JobScheduler {
  /**
   * Queues a job; undefined when a live job with the same dedupe key exists already. Throws
   * QueueFullError when the owner has as many live jobs of the kind as it allows.
   */
  enqueue<K extends JobKind>(job: JobOrder<K>): Promise<JobRecord<K> | undefined>;
  /** Claims what can run now rather than at the next poll, e.g. after an owner resumed a queue. */
  wake(kind: JobKind): void;
  /** Stops these jobs if they are running here; the store has marked them cancelled already. */
  abortCancelled(ids: readonly number[]): void;
}

/** Tells the world about a job's every state change (HD status messages, say). */
export type JobListener = (job: JobRecord) => void;

/** How the runner looks for work besides being told (JobQueue.watch). */
export interface RunnerOptions {
  /**
   * The fallback poll: claims are tried this often whatever the queue said. Default 500 ms (one
   * process on SQLite hears nothing from others); with LISTEN/NOTIFY a few seconds suffice.
   */
  pollMs?: number;
  /**
   * At start, put back every job left in progress (SQLite: this is the only process running
   * jobs, so they are its own, from before a crash). With several processes sharing the queue
   * it must be false: their jobs come back by lease expiry instead. Default true.
   */
  requeueAtStart?: boolean;
  /**
   * How store calls are spaced while the store fails (a database outage): every call of the
   * runner waits out a doubling backoff, and a finished run's outcome is kept and saved once the
   * store answers again. Default 200 ms doubling up to 5 s.
   */
  storeRetry?: StoreRetry;
  /** Where each run's outcome and duration go; default: nowhere. */
  metrics?: Metrics;
}

const DEFAULT_POLL_MS = 500;
const PROGRESS_WRITE_MS = 250;
/**
 * The longest gap between lease renewals. A renewal is also how the runner learns that another
 * process cancelled a job it runs (the store renews only jobs still in progress), so a long
 * lease term does not make such a cancellation slow to stop the run. A cancellation made here
 * stops the job at once through abortCancelled.
 */
const MAX_RENEWAL_GAP_MS = 2000;

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
  private heartbeat: NodeJS.Timeout | undefined;
  private tending = false;
  private unwatch: (() => Promise<void>) | undefined;
  private stopped = false;
  private readonly pollMs: number;
  private readonly requeueAtStart: boolean;
  /** Every store call of the runner, spaced by one backoff while the store fails. */
  private readonly store: StoreCalls;
  private readonly metrics: Metrics;

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
    // At most a third of the term: two renewals may fail (a slow database) before it runs out.
    const gap = Math.min(this.jobs.lease.ms / 3, MAX_RENEWAL_GAP_MS);
    this.heartbeat = setInterval(() => void this.tendLeases(), Math.max(1, gap));
    this.heartbeat.unref();
    await this.tendLeases();
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
    clearInterval(this.heartbeat);
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

  /**
   * Renews the leases of the jobs running here, stops the runs whose lease was lost, and puts
   * back the jobs whose holder stopped renewing (any process's, this one's after a stall).
   */
  private async tendLeases(): Promise<void> {
    // While the store is down the backoff spaces the tries; a lease outlives a short outage.
    if (this.stopped || this.tending || this.store.wait() > 0) return;
    this.tending = true;
    try {
      const ids = [...this.controllers.keys()];
      // No call without ids: a call that reaches no store would end the backoff.
      const kept = new Set(
        ids.length === 0
          ? []
          : await this.store.once('renewing job leases', () =>
              this.jobs.renewLeases(ids, this.now()),
            ),
      );
      for (const id of ids) {
        if (kept.has(id)) continue;
        this.log.warn(
          { job: id },
          'job no longer held here (lease lost or cancelled): stopping it',
        );
        this.controllers.get(id)?.abort(new LeaseLost(`Job ${id} is no longer held here`));
      }
      const expired = await this.store.once('putting back expired jobs', () =>
        this.jobs.expireLeases(this.now()),
      );
      for (const job of expired) {
        this.log.warn(
          { job: job.id, kind: job.kind, status: job.status },
          'job whose process stopped renewing its lease put back',
        );
        this.emit(job);
      }
    } catch {
      // Logged by stored; the next beat after the backoff tries again.
    } finally {
      this.tending = false;
    }
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
      const outcome = await this.runHandler(job, handler, controller);
      // The run's own time: a wait for the store to save it is not the engine's.
      const seconds = (performance.now() - started) / 1000;
      if (outcome.ok) {
        const saved = await this.settleSuccess(job, outcome.output);
        this.metrics.jobRun(job.kind, saved ? 'finished' : 'lost', seconds);
      } else {
        const stoppedByShutdown = controller.signal.aborted && this.stopped;
        this.metrics.jobRun(job.kind, runOutcome(outcome.err, stoppedByShutdown), seconds);
        await this.settleFailure(job, config, outcome.err, controller.signal.aborted);
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

  /** Runs the handler; what it made, or why it failed (a cancellation or lost lease first). */
  private async runHandler<K extends JobKind>(
    job: JobRecord<K>,
    handler: JobHandler<K>,
    controller: AbortController,
  ): Promise<{ ok: true; output: string } | { ok: false; err: unknown }> {
    // What the job showed before (an earlier run, before a restart) is the floor: the store keeps
    // the percent through requeues, and a user never sees it go back (issue 23, part 12).
    let percent = job.percent;
    let lastWrite = 0;
    let trailingWrite: NodeJS.Timeout | undefined;
    const write = () => {
      trailingWrite = undefined;
      const now = this.now();
      lastWrite = now.getTime();
      return this.store
        .once('saving progress', () => this.jobs.progress(job.id, percent, now))
        .catch(() => undefined);
    };
    const progress = (value: number) => {
      const next = Math.max(0, Math.min(99, Math.floor(value)));
      if (next <= percent || controller.signal.aborted) return;
      percent = next;
      this.emit({ ...job, percent, ...(waiting !== undefined && { notice: waiting }) });
      const since = this.now().getTime() - lastWrite;
      // While the store is down, the user still sees progress; a later write catches up.
      if (since >= PROGRESS_WRITE_MS && this.store.wait() === 0) void write();
      // Throttled, but the last value shown is stored too: it is the floor after a restart.
      else
        trailingWrite ??= setTimeout(
          () => void write(),
          Math.max(PROGRESS_WRITE_MS - since, this.store.wait()),
        ).unref();
    };
    const held = (err: unknown) => err instanceof JobNotHeldError;
    // A wait deep in the run (an object store retrying) reaches the user as a notice: told now
    // (HD status messages) and stored with the job, for a status read in any process (previews).
    // The writes go one after another, so the last one stored is the last one told; they end
    // with the run (its end clears the notice), never landing on a later attempt.
    let waiting: string | undefined;
    let noticeWrites = Promise.resolve();
    const runOver = new AbortController();
    const writesEnd = AbortSignal.any([controller.signal, runOver.signal]);
    const onWaiting = (notice: string | undefined) => {
      if (notice === waiting || controller.signal.aborted) return;
      waiting = notice;
      this.emit({ ...job, percent, ...(notice !== undefined && { notice }) });
      noticeWrites = noticeWrites.then(() =>
        this.store
          .until(
            'saving a waiting notice',
            () => this.jobs.noteWaiting(job.id, notice ?? null),
            writesEnd,
            held,
          )
          .catch(() => undefined),
      );
    };
    try {
      const hold = holdPoint('job-started');
      if (hold) await hold;
      if (controller.signal.aborted) throw controller.signal.reason;
      const output = await withWaitingNotices(
        onWaiting,
        () =>
          handler(job, {
            progress,
            signal: controller.signal,
            reserveOutput: async (name) => {
              try {
                await this.store.until(
                  'reserving an output name',
                  () => this.jobs.reserveOutput(job.id, name),
                  controller.signal,
                  held,
                );
              } catch (err) {
                // Lost before the heartbeat noticed: stop the run here, before it writes a file.
                if (err instanceof JobNotHeldError) controller.abort(new LeaseLost(err.message));
                throw err;
              }
            },
            remote: {
              ...(job.remotePrompt ? { previous: job.remotePrompt } : {}),
              queued: (prompt) =>
                this.store.until(
                  'noting a remote prompt',
                  () => this.jobs.rememberPrompt(job.id, prompt),
                  controller.signal,
                  held,
                ),
            },
          }),
        controller.signal,
      );
      if (controller.signal.aborted) throw controller.signal.reason;
      return { ok: true, output };
    } catch (err) {
      // A cancelled or lost job ends so however its handler stopped: that is what happened.
      const reason: unknown = controller.signal.reason;
      const decisive = reason instanceof JobCancelled || reason instanceof LeaseLost;
      if (trailingWrite) {
        // Stored before the job goes back to the queue: its floor for the next run.
        clearTimeout(trailingWrite);
        await write();
      }
      return { ok: false, err: decisive ? reason : err };
    } finally {
      clearTimeout(trailingWrite);
      runOver.abort();
    }
  }

  /** Saves a finished run; false when another process held the job by then (lease lost). */
  private async settleSuccess<K extends JobKind>(
    job: JobRecord<K>,
    output: string,
  ): Promise<boolean> {
    const hold = holdPoint('job-finished-unsaved');
    if (hold) await hold;
    const finished = await this.store.until('saving a finished job', () =>
      this.jobs.finish(job.id, output, this.now()),
    );
    if (!finished) {
      this.log.warn({ job: job.id, kind: job.kind }, 'job finished here after its lease was lost');
      return false;
    }
    this.emit(finished);
    this.log.info({ job: job.id, kind: job.kind, output }, 'job finished');
    return true;
  }

  private async settleFailure<K extends JobKind>(
    job: JobRecord<K>,
    config: JobPolicy,
    err: unknown,
    aborted: boolean,
  ): Promise<void> {
    // What the user reads (the job's status) is a contract text; the detail goes to the log.
    const detail = err instanceof Error ? err.message : String(err);
    const message = readableError(err, 'JOB_FAILED').text;
    if (aborted && this.stopped) {
      // One try: a stop does not wait for the store; an unsaved release is a lease that expires.
      await this.store.once('putting back a stopped job', () =>
        this.jobs.release(job.id, this.now()),
      );
      return;
    }
    if (err instanceof JobCancelled) {
      this.log.info({ job: job.id, kind: job.kind }, 'running job cancelled');
      this.emit({ ...job, status: 'cancelled' });
      return;
    }
    // Another process holds the job now (or it was cancelled there): this run writes nothing.
    if (err instanceof LeaseLost) return;
    if (job.attempts < job.maxAttempts && !(err instanceof PermanentJobError)) {
      const delay = config.retryDelayMs(job.attempts);
      this.log.warn(
        { job: job.id, kind: job.kind, attempt: job.attempts, err: detail, delay },
        'job failed, will retry',
      );
      this.emitIfHeld(
        await this.store.until('saving a job to retry', () =>
          this.jobs.retry(job.id, message, new Date(this.now().getTime() + delay), this.now()),
        ),
      );
      return;
    }
    this.log.error({ job: job.id, kind: job.kind, err: detail }, 'job failed');
    this.emitIfHeld(
      await this.store.until('saving a failed job', () =>
        this.jobs.fail(job.id, message, this.now()),
      ),
    );
  }

  /** A write that found the job no longer held here changed nothing: nothing to tell. */
  private emitIfHeld(job: JobRecord | undefined): void {
    if (job) this.emit(job);
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

/** How a run that threw ended, as settleFailure will treat it. */
function runOutcome(err: unknown, stoppedByShutdown: boolean): JobRunOutcome {
  if (stoppedByShutdown) return 'stopped';
  if (err instanceof JobCancelled) return 'cancelled';
  if (err instanceof LeaseLost) return 'lost';
  return 'failed';
}
