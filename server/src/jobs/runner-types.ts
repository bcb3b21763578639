import type { ServerError, ServerErrorCode } from '@tessera/contract';
import type { Metrics } from '../runtime/metrics.js';
import type { JobKind, JobOrder, JobRecord, RemotePrompt } from './job.js';
import type { StoreRetry } from './store-backoff.js';

// What the runner's users see of it: the handler's context, the policies, the scheduler port.

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
  remote: { previous?: RemotePrompt; queued(prompt: RemotePrompt): Promise<void> };
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
  /** Which per-user queue quota replaces `maxLivePerOwner` when set (issue 29, part 3). */
  ownerQuota?: 'preview' | 'hd';
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
