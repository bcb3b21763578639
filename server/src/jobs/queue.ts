import type { JobKind, JobRecord, JobRemotePrompt, NewJob } from './job.js';

/** The owner already has as many live jobs of this kind as the queue takes. */
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`At most ${limit} jobs may wait at once`);
  }
}

/**
 * The persistent job queue, the port the runner and the services use; the SQLite table
 * (store/jobs.ts) is its first implementation. Every state change is one atomic step, so
 * several runners may share one queue.
 */
export interface JobQueue {
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
  progress(id: number, percent: number, now: Date): Promise<void>;
  finish(id: number, output: string, now: Date): Promise<JobRecord>;
  /** Back to the queue after a failure, to run again after `runAfter`. */
  retry(id: number, error: string, runAfter: Date, now: Date): Promise<JobRecord>;
  fail(id: number, error: string, now: Date): Promise<JobRecord>;
  /** After a restart: jobs left in progress go back to the queue (or fail, out of attempts). */
  requeueInterrupted(now: Date): Promise<JobRecord[]>;
  /** Puts a job whose run was stopped (shutdown) back in the queue, the attempt not counted. */
  release(id: number, now: Date): Promise<void>;
  /** Cancels the owner's job if it is still queued; the job as it is now, or undefined if unknown. */
  cancel<K extends JobKind>(
    ownerId: number,
    kind: K,
    publicId: string,
    now: Date,
  ): Promise<JobRecord<K> | undefined>;
  /** Cancels the owner's live jobs whose dedupe key starts with `prefix`; their ids. */
  cancelByKeyPrefix(ownerId: number, kind: JobKind, prefix: string, now: Date): Promise<number[]>;
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
  /** Lets the owner's queued jobs of the kind run again; idempotent. */
  resume(ownerId: number, kind: JobKind): Promise<void>;
  isPaused(ownerId: number, kind: JobKind): Promise<boolean>;
  nextRunAfter(kind: JobKind): Promise<string | undefined>;
  /**
   * Notes the output name a running job is about to write, before it writes it: a rerun after
   * a crash writes the same name again (overwriting, never adding a second file).
   */
  reserveOutput(id: number, output: string): Promise<void>;
  /**
   * Notes the prompt a running job queued on a remote server: a rerun after a restart picks it
   * up there. Cleared when the job finishes, fails, or goes back to the queue after a failure.
   */
  rememberPrompt(id: number, prompt: JobRemotePrompt): Promise<void>;
  /** The output names that live (queued or running) jobs of the owner have reserved. */
  liveOutputs(ownerId: number): Promise<Set<string>>;
}
