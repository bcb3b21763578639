import type { Logger } from 'pino';
import type { JobRunOutcome } from '../runtime/metrics.js';
import type { JobKind, JobRecord } from './job.js';
import type { JobQueue } from './queue.js';
import type { StoreCalls } from './store-backoff.js';

/** What a run's parts share with the runner: the queue, its store calls, and its listeners. */
export interface RunDeps {
  readonly jobs: JobQueue;
  /** Every store call of the runner, spaced by one backoff while the store fails. */
  readonly store: StoreCalls;
  readonly log: Logger;
  now(): Date;
  /** Tells the runner's listeners about a job's state. */
  emit<K extends JobKind>(job: JobRecord<K>): void;
  /** Whether the runner was stopped (a run aborted then goes back to the queue). */
  stopped(): boolean;
}

/** The abort reason of a job cancelled while it ran. */
export class JobCancelled extends Error {
  override name = 'JobCancelled';
}

/** The abort reason of a job this process no longer holds: its lease went to another, or it was cancelled. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** How a run that threw ended, as settleFailure will treat it. */
export function runOutcome(err: unknown, stoppedByShutdown: boolean): JobRunOutcome {
  if (stoppedByShutdown) return 'stopped';
  if (err instanceof JobCancelled) return 'cancelled';
  if (err instanceof LeaseLost) return 'lost';
  return 'failed';
}
