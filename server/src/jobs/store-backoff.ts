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
