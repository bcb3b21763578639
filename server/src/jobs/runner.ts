import type { Logger } from 'pino';
import { ServerStopping } from '../shutdown.js';
import {
  JOB_KINDS,
  type JobKind,
  type JobOrder,
  type JobRecord,
  type JobRemotePrompt,
} from './job.js';
import type { JobQueue } from './queue.js';

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
}

/** The abort reason of a job cancelled while it ran. */
class JobCancelled extends Error {
  override name = 'JobCancelled';
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

const POLL_MS = 500;
const PROGRESS_WRITE_MS = 250;

/**
 * The persistent queue's runner: claims jobs atomically, runs each kind with its concurrency,
 * retries with backoff, and on start puts back to the queue what a crash left in progress.
 */
export class JobRunner implements JobScheduler {
  private handlers: JobHandlers | undefined;
  private readonly running = new Map<JobKind, Set<Promise<void>>>();
  private readonly controllers = new Map<number, AbortController>();
  private readonly listeners = new Set<JobListener>();
  private readonly pumping = new Set<JobKind>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly policies: JobPolicies,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

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
    for (const job of await this.jobs.requeueInterrupted(this.now())) {
      this.log.info(
        { job: job.id, kind: job.kind, status: job.status },
        'job interrupted by a restart',
      );
      this.emit(job);
    }
    this.timer = setInterval(() => this.wakeAll(), POLL_MS);
    this.timer.unref();
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
    if (record) {
      this.emit(record);
      void this.pump(job.kind);
    }
    return record;
  }

  /** Stops claiming, aborts the running jobs (they return to the queue) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const controller of this.controllers.values()) controller.abort(new ServerStopping());
    await Promise.all([...this.running.values()].flatMap((set) => [...set]));
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
    if (this.stopped || this.pumping.has(kind)) return;
    const config = this.policies[kind];
    // Jobs queued before start wait for it: the handlers come with it.
    const handler: JobHandler<K> | undefined = this.handlers?.[kind];
    if (!handler) return;
    this.pumping.add(kind);
    try {
      const running = this.running.get(kind) ?? new Set<Promise<void>>();
      this.running.set(kind, running);
      while (!this.stopped && running.size < config.concurrency) {
        const job = await this.jobs.claim<K>(kind, this.now());
        if (!job) break;
        this.emit(job);
        const run = this.execute(job, config, handler).finally(() => {
          running.delete(run);
          void this.pump(kind);
        });
        running.add(run);
      }
    } catch (err) {
      this.log.error({ err, kind }, 'claiming jobs failed');
    } finally {
      this.pumping.delete(kind);
    }
  }

  private async execute<K extends JobKind>(
    job: JobRecord<K>,
    config: JobPolicy,
    handler: JobHandler<K>,
  ): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    let percent = 0;
    let lastWrite = 0;
    const progress = (value: number) => {
      const next = Math.max(0, Math.min(99, Math.floor(value)));
      if (next <= percent || controller.signal.aborted) return;
      percent = next;
      this.emit({ ...job, percent });
      const now = this.now();
      if (now.getTime() - lastWrite >= PROGRESS_WRITE_MS) {
        lastWrite = now.getTime();
        this.jobs
          .progress(job.id, percent, now)
          .catch((err: unknown) => this.log.warn({ err }, 'progress not saved'));
      }
    };
    try {
      const output = await handler(job, {
        progress,
        signal: controller.signal,
        reserveOutput: (name) => this.jobs.reserveOutput(job.id, name),
        remote: {
          ...(job.remotePrompt ? { previous: job.remotePrompt } : {}),
          queued: (prompt) => this.jobs.rememberPrompt(job.id, prompt),
        },
      });
      if (controller.signal.aborted) throw controller.signal.reason;
      this.emit(await this.jobs.finish(job.id, output, this.now()));
      this.log.info({ job: job.id, kind: job.kind, output }, 'job finished');
    } catch (err) {
      // A cancelled job fails however its handler stopped: the cancellation is what happened.
      const cancelled = controller.signal.reason instanceof JobCancelled;
      await this.settleFailure(
        job,
        config,
        cancelled ? controller.signal.reason : err,
        controller.signal.aborted,
      );
    } finally {
      this.controllers.delete(job.id);
    }
  }

  private async settleFailure<K extends JobKind>(
    job: JobRecord<K>,
    config: JobPolicy,
    err: unknown,
    aborted: boolean,
  ): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    if (aborted && this.stopped) {
      await this.jobs.release(job.id, this.now());
      return;
    }
    if (err instanceof JobCancelled) {
      this.log.info({ job: job.id, kind: job.kind }, 'running job cancelled');
      this.emit({ ...job, status: 'cancelled' });
      return;
    }
    if (job.attempts < job.maxAttempts && !(err instanceof PermanentJobError)) {
      const delay = config.retryDelayMs(job.attempts);
      this.log.warn(
        { job: job.id, kind: job.kind, attempt: job.attempts, err: message, delay },
        'job failed, will retry',
      );
      this.emit(
        await this.jobs.retry(job.id, message, new Date(this.now().getTime() + delay), this.now()),
      );
      return;
    }
    this.log.error({ job: job.id, kind: job.kind, err: message }, 'job failed');
    this.emit(await this.jobs.fail(job.id, message, this.now()));
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
