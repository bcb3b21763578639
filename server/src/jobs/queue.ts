import type { JobKind, JobRecord, RemotePrompt, NewJob } from './job.js';
import type { JobLease } from './lease.js';

/** The owner already has as many live jobs of this kind as the queue takes. */
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`At most ${limit} jobs may wait at once`);
  }
}

/** Called with a kind whose jobs may have become claimable; see JobQueue.watch. */
export type JobsAvailable = (kind: JobKind) => void;

/** A running job's write found the job no longer held by this process: stop its run. */
export class JobNotHeldError extends Error {
  override name = 'JobNotHeldError';
  constructor(readonly jobId: number) {
    super(`Job ${jobId} is no longer held by this process`);
  }
}

/**
 * The persistent job queue as the runner speaks to it: queue a job, claim it, keep its lease, and
 * write what its run does. The jobs table (store/jobs.ts, on SQLite or PostgreSQL) implements it,
 * with OwnerQueue on the same rows. Every state change is one atomic step, so several runners, in
 * one process or several, may share one queue.
 *
 * Leases: a claim records this queue's holder (one per process run) and an expiry; the runner
 * renews the leases of its running jobs, and a job whose lease expired is put back (or failed,
 * out of attempts) by expireLeases, for any process to claim. The writes of a running job
 * (progress, finish, retry, fail, release, reserveOutput, rememberPrompt, noteWaiting) take
 * effect only while this queue's holder holds it: a process that lost a job writes nothing to it.
 */
export interface JobQueue {
  /** Who claims through this queue, and the term of each claim. */
  readonly lease: JobLease;
  /**
   * Undefined when a live job with the same dedupe key exists; throws QueueFullError when the
   * owner's live jobs of the kind reached `maxLivePerOwner` (counted in the same step).
   */
  enqueue<K extends JobKind>(job: NewJob<K>, now: Date): Promise<JobRecord<K> | undefined>;
  /**
   * Takes the next runnable job of a kind and marks it in progress, atomically. Owners take turns
   * (round-robin: one owner's many jobs do not starve another's one); within an owner's turn their
   * own order counts (queue_order, then arrival). A paused owner's jobs are passed over.
   */
  claim<K extends JobKind>(kind: K, now: Date): Promise<JobRecord<K> | undefined>;
  /** When the next queued job of a kind may run (its `run_after`), if any is queued. */
  nextRunAfter(kind: JobKind): Promise<string | undefined>;
  /**
   * Calls `onAvailable` whenever jobs of a kind may have become claimable: queued, put back,
   * resumed, or a slot freed, by this process or (on PostgreSQL, by LISTEN/NOTIFY) by any other.
   * Resolves once listening, with the function that stops it. Not a substitute for an occasional
   * poll: `run_after` times pass without anyone saying so.
   */
  watch(onAvailable: JobsAvailable): Promise<() => Promise<void>>;
  /**
   * Extends this holder's leases of these running jobs to `now` + the term; the ids it still
   * holds. A missing id was lost (expired and taken by another, or cancelled): stop its run.
   */
  renewLeases(ids: readonly number[], now: Date): Promise<number[]>;
  /**
   * Jobs whose lease expired (their process died or stalled) go back to the queue, the attempt
   * they used counted, or fail when out of attempts, as requeueInterrupted does; the jobs changed.
   */
  expireLeases(now: Date): Promise<JobRecord[]>;
  /**
   * After a restart of the only process running jobs (SQLite): every job left in progress goes
   * back to the queue (or fails, out of attempts), whoever held it. Never with several processes.
   */
  requeueInterrupted(now: Date): Promise<JobRecord[]>;
  progress(id: number, percent: number, now: Date): Promise<void>;
  /**
   * Notes the output name a running job is about to write, before it writes it: a rerun after
   * a crash writes the same name again (overwriting, never adding a second file). Throws
   * JobNotHeldError when this process no longer holds the job: its run must not write at all.
   */
  reserveOutput(id: number, output: string): Promise<void>;
  /**
   * Notes the prompt a running job queued on a remote server: a rerun after a restart picks it
   * up there. Cleared when the job finishes, fails, or goes back to the queue after a failure.
   */
  rememberPrompt(id: number, prompt: RemotePrompt): Promise<void>;
  /**
   * Notes what a running job waits for (a readable text; null once it goes on), for its owner's
   * status read by any process. Cleared too by every way out of 'in_progress' and by a claim.
   */
  noteWaiting(id: number, notice: string | null): Promise<void>;
  /** The job as it is now; undefined when this process no longer holds it (nothing written). */
  finish(id: number, output: string, now: Date): Promise<JobRecord | undefined>;
  /** Back to the queue after a failure, to run again after `runAfter`; undefined as finish. */
  retry(id: number, error: string, runAfter: Date, now: Date): Promise<JobRecord | undefined>;
  fail(id: number, error: string, now: Date): Promise<JobRecord | undefined>;
  /** Puts a job whose run was stopped (shutdown) back in the queue, the attempt not counted. */
  release(id: number, now: Date): Promise<void>;
}

/**
 * The job queue as its owners see it, through the services: their jobs (the queue page, a job
 * by the id the client knows), and what an owner may do to their queued jobs: cancel, move to
 * the top, pause and resume. Jobs are queued through the runner (JobScheduler, JobQueue.enqueue),
 * which adds each kind's attempts and limits.
 */
export interface OwnerQueue {
  /** The owner's jobs of a kind, newest first. */
  list<K extends JobKind>(ownerId: number, kind: K, limit: number): Promise<JobRecord<K>[]>;
  /** The owner's latest job of a kind, cancelled ones left out. */
  latest<K extends JobKind>(ownerId: number, kind: K): Promise<JobRecord<K> | undefined>;
  /** The owner's latest job with this public id (the id the client knows it by). */
  findByPublicId<K extends JobKind>(
    ownerId: number,
    kind: K,
    publicId: string,
  ): Promise<JobRecord<K> | undefined>;
  /** The queued or running job holding a dedupe key. */
  findLive<K extends JobKind>(
    ownerId: number,
    kind: K,
    dedupeKey: string,
  ): Promise<JobRecord<K> | undefined>;
  /** The output names that live (queued or running) jobs of the owner have reserved. */
  liveOutputs(ownerId: number): Promise<Set<string>>;
  /** Cancels the owner's job if it is still queued; the job as it is now, or undefined if unknown. */
  cancel<K extends JobKind>(
    ownerId: number,
    kind: K,
    publicId: string,
    now: Date,
  ): Promise<JobRecord<K> | undefined>;
  /**
   * Cancels the owner's live jobs (queued or running) whose dedupe key starts with `prefix`; the
   * jobs cancelled. A running one's process learns it at its next lease renewal.
   */
  cancelByKeyPrefix(
    ownerId: number,
    kind: JobKind,
    prefix: string,
    now: Date,
  ): Promise<JobRecord[]>;
  /**
   * Puts the owner's queued job ahead of their other queued jobs; the job as it is now, or
   * undefined if unknown (a job that is not queued is left as it is).
   */
  moveToTop<K extends JobKind>(
    ownerId: number,
    kind: K,
    publicId: string,
    now: Date,
  ): Promise<JobRecord<K> | undefined>;
  /** Holds back the owner's queued jobs of the kind (running ones go on); idempotent. */
  pause(ownerId: number, kind: JobKind, now: Date): Promise<void>;
  /** Lets the owner's queued jobs of the kind run again, waking the runners; idempotent. */
  resume(ownerId: number, kind: JobKind): Promise<void>;
  isPaused(ownerId: number, kind: JobKind): Promise<boolean>;
}
