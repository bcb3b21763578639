import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { JobNotHeldError } from './queue.js';

/** How a runner spaces its store calls while the store fails (JOB_STORE_RETRY_MAX_MS). */
export interface StoreRetry {
  /** The wait after the first failure; doubled after each further one. */
  baseMs: number;
  /** The longest wait between two tries. */
  maxMs: number;
}

export const DEFAULT_STORE_RETRY: StoreRetry = { baseMs: 200, maxMs: 5000 };

/**
 * One runner's view of its store's health: after a failed call, no call is made until a wait
 * has passed (doubling from `baseMs`, capped at `maxMs`), so an outage costs one try per wait
 * rather than a storm of failing queries; the first call that succeeds ends it.
 */
export class StoreBackoff {
  private failures = 0;
  private until = 0;

  constructor(
    private readonly retry: StoreRetry,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Failures in a row, 0 when the last call succeeded. */
  get failuresInARow(): number {
    return this.failures;
  }

  /** How long to wait before the next call; 0 now. */
  wait(): number {
    return Math.max(0, this.until - this.clock());
  }

  /** A call failed: the wait grows, unless this call was made within the current one. */
  failed(): number {
    if (this.wait() === 0) {
      this.failures++;
      const delay = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (this.failures - 1));
      this.until = this.clock() + delay;
    }
    return this.wait();
  }

  /** A call succeeded; true when that ends an outage. */
  succeeded(): boolean {
    const ended = this.failures > 0;
    this.failures = 0;
    this.until = 0;
    return ended;
  }
}

/**
 * The job runner's calls to its store (issue 23, part 10), through one StoreBackoff: while the
 * store fails (a database outage) the runner makes one try per wait, logs the outage once per
 * lengthened wait and once per kind of call, and logs its end.
 */
export class StoreCalls {
  private readonly backoff: StoreBackoff;
  /** The kinds of call that failed in the current outage. */
  private readonly failedCalls = new Set<string>();
  /** Aborted by stop: ends the waits between tries. */
  private readonly stopping = new AbortController();

  constructor(
    retry: StoreRetry,
    private readonly log: Logger,
  ) {
    this.backoff = new StoreBackoff(retry);
  }

  /** How long to wait before the next call; 0 now. */
  wait(): number {
    return this.backoff.wait();
  }

  /** The runner stops: waits end, and `until` gives up after one more try. */
  stop(): void {
    this.stopping.abort();
  }

  /**
   * One call, counted in the backoff: a failure (not an answer such as JobNotHeldError)
   * lengthens the wait before the next call, and is rethrown.
   */
  async once<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      if (this.backoff.succeeded()) this.log.warn('job store answers again: jobs resume');
      this.failedCalls.clear();
      return result;
    } catch (err) {
      if (err instanceof JobNotHeldError) throw err;
      const before = this.backoff.failuresInARow;
      const retryInMs = this.backoff.failed();
      const firstOfItsKind = !this.failedCalls.has(what);
      this.failedCalls.add(what);
      if (this.backoff.failuresInARow > before || firstOfItsKind) {
        this.log.warn(
          { err, failures: this.backoff.failuresInARow, retryInMs },
          `job store unreachable (${what}): retrying after a backoff`,
        );
      }
      throw err;
    }
  }

  /**
   * A call repeated, after the backoff's waits, until it succeeds: what a job's run must write
   * before it goes on. Ends early when `signal` aborts (the run stopped), on an error
   * `definitive` says is an answer, and after one try once the runner is stopping.
   */
  async until<T>(
    what: string,
    call: () => Promise<T>,
    signal?: AbortSignal,
    definitive?: (err: unknown) => boolean,
  ): Promise<T> {
    const interrupted = signal
      ? AbortSignal.any([signal, this.stopping.signal])
      : this.stopping.signal;
    for (;;) {
      const wait = this.backoff.wait();
      if (wait > 0) {
        await sleep(wait, undefined, { signal: interrupted }).catch(() => undefined);
        if (signal?.aborted) throw signal.reason;
      }
      try {
        return await this.once(what, call);
      } catch (err) {
        if (definitive?.(err) || this.stopping.signal.aborted) throw err;
      }
    }
  }
}
