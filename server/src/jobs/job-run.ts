import { holdPoint } from '../runtime/faults.js';
import { withWaitingNotices } from '../runtime/waiting-notices.js';
import type { JobKind, JobRecord } from './job.js';
import { JobNotHeldError } from './queue.js';
import { JobCancelled, LeaseLost, type RunDeps } from './run-ends.js';
import type { JobHandler } from './runner-types.js';

const PROGRESS_WRITE_MS = 250;

/** What a run made, or why it failed. */
export type RunResult = { ok: true; output: string } | { ok: false; err: unknown };

/**
 * Runs a job's handler with its context: progress (shown at once, stored throttled), waiting
 * notices, the output name reserved before it is written, and the remote prompt an earlier run
 * left (recovered) or this one queues (noted). What it made, or why it failed (a cancellation
 * or a lost lease first, however the handler stopped).
 */
export async function runHandler<K extends JobKind>(
  deps: RunDeps,
  job: JobRecord<K>,
  handler: JobHandler<K>,
  controller: AbortController,
): Promise<RunResult> {
  // What the job showed before (an earlier run, before a restart) is the floor: the store keeps
  // the percent through requeues, and a user never sees it go back (issue 23, part 12).
  let percent = job.percent;
  let lastWrite = 0;
  let trailingWrite: NodeJS.Timeout | undefined;
  const write = () => {
    trailingWrite = undefined;
    const now = deps.now();
    lastWrite = now.getTime();
    return deps.store
      .once('saving progress', () => deps.jobs.progress(job.id, percent, now))
      .catch(() => undefined);
  };
  const progress = (value: number) => {
    const next = Math.max(0, Math.min(99, Math.floor(value)));
    if (next <= percent || controller.signal.aborted) return;
    percent = next;
    deps.emit({ ...job, percent, ...(waiting !== undefined && { notice: waiting }) });
    const since = deps.now().getTime() - lastWrite;
    // While the store is down, the user still sees progress; a later write catches up.
    if (since >= PROGRESS_WRITE_MS && deps.store.wait() === 0) void write();
    // Throttled, but the last value shown is stored too: it is the floor after a restart.
    else
      trailingWrite ??= setTimeout(
        () => void write(),
        Math.max(PROGRESS_WRITE_MS - since, deps.store.wait()),
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
    deps.emit({ ...job, percent, ...(notice !== undefined && { notice }) });
    noticeWrites = noticeWrites.then(() =>
      deps.store
        .until(
          'saving a waiting notice',
          () => deps.jobs.noteWaiting(job.id, notice ?? null),
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
              await deps.store.until(
                'reserving an output name',
                () => deps.jobs.reserveOutput(job.id, name),
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
              deps.store.until(
                'noting a remote prompt',
                () => deps.jobs.rememberPrompt(job.id, prompt),
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
