import { holdPoint } from '../runtime/faults.js';
import { readableError } from '../services/readable-error.js';
import type { JobKind, JobRecord } from './job.js';
import { JobCancelled, LeaseLost, type RunDeps } from './run-ends.js';
import { PermanentJobError, type JobPolicy } from './runner-types.js';

// A run's outcome, saved: finished, retried after its policy's delay, failed, put back at a stop.

/** Saves a finished run; false when another process held the job by then (lease lost). */
export async function settleSuccess<K extends JobKind>(
  deps: RunDeps,
  job: JobRecord<K>,
  output: string,
): Promise<boolean> {
  const hold = holdPoint('job-finished-unsaved');
  if (hold) await hold;
  const finished = await deps.store.until('saving a finished job', () =>
    deps.jobs.finish(job.id, output, deps.now()),
  );
  if (!finished) {
    deps.log.warn({ job: job.id, kind: job.kind }, 'job finished here after its lease was lost');
    return false;
  }
  deps.emit(finished);
  deps.log.info({ job: job.id, kind: job.kind, publicId: job.publicId, output }, 'job finished');
  return true;
}

export async function settleFailure<K extends JobKind>(
  deps: RunDeps,
  job: JobRecord<K>,
  config: JobPolicy,
  err: unknown,
  aborted: boolean,
): Promise<void> {
  // What the user reads (the job's status) is a contract text; the detail goes to the log.
  const detail = err instanceof Error ? err.message : String(err);
  const message = readableError(err, 'JOB_FAILED').text;
  if (aborted && deps.stopped()) {
    // One try: a stop does not wait for the store; an unsaved release is a lease that expires.
    await deps.store.once('putting back a stopped job', () =>
      deps.jobs.release(job.id, deps.now()),
    );
    return;
  }
  if (err instanceof JobCancelled) {
    deps.log.info({ job: job.id, kind: job.kind }, 'running job cancelled');
    deps.emit({ ...job, status: 'cancelled' });
    return;
  }
  // Another process holds the job now (or it was cancelled there): this run writes nothing.
  if (err instanceof LeaseLost) return;
  if (job.attempts < job.maxAttempts && !(err instanceof PermanentJobError)) {
    const delay = config.retryDelayMs(job.attempts);
    deps.log.warn(
      { job: job.id, kind: job.kind, attempt: job.attempts, err: detail, delay },
      'job failed, will retry',
    );
    emitIfHeld(
      deps,
      await deps.store.until('saving a job to retry', () =>
        deps.jobs.retry(job.id, message, new Date(deps.now().getTime() + delay), deps.now()),
      ),
    );
    return;
  }
  deps.log.error(
    { job: job.id, kind: job.kind, publicId: job.publicId, err: detail },
    'job failed',
  );
  emitIfHeld(
    deps,
    await deps.store.until('saving a failed job', () =>
      deps.jobs.fail(job.id, message, deps.now()),
    ),
  );
}

/** A write that found the job no longer held here changed nothing: nothing to tell. */
function emitIfHeld(deps: RunDeps, job: JobRecord | undefined): void {
  if (job) deps.emit(job);
}
