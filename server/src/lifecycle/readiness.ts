import type { Logger } from 'pino';
import type { Readiness } from '../http/operations.js';

/** A dependency the process cannot serve without. */
export type Dependency = 'database' | 'broker' | 'files';

/** Throws (or rejects) when the dependency cannot be reached now; stops once `signal` aborts. */
export type DependencyCheck = (signal: AbortSignal) => Promise<void> | void;

/** A check that has not answered within this counts as failing: a probe must answer in time. */
export const CHECK_TIMEOUT_MS = 3000;

/**
 * GET /api/ready's answer: each dependency checked afresh at every probe, in parallel, and
 * `stopping` from the moment a shutdown begins, so a load balancer drains the process first.
 */
export class ReadinessProbe {
  private stopping = false;
  private readonly checks = new Map<Dependency, DependencyCheck>();
  /** What failed at the last probe, so the log tells each change once, not every probe. */
  private lastFailing = '';

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {}

  /** Adds (or replaces) a dependency's check; a part that starts later adds its own then. */
  require(dependency: Dependency, check: DependencyCheck): void {
    this.checks.set(dependency, check);
  }

  /** From now on the process says it is stopping: no new work should be sent to it. */
  markStopping(): void {
    this.stopping = true;
  }

  readonly check = async (): Promise<Readiness> => {
    if (this.stopping) return { status: 'stopping' };
    const results = await Promise.all(
      [...this.checks].map(async ([dependency, check]) => {
        const deadline = new AbortController();
        try {
          await withTimeout(
            Promise.resolve().then(() => check(deadline.signal)),
            this.timeoutMs,
          );
          return undefined;
        } catch (err) {
          return { dependency, err };
        } finally {
          deadline.abort();
        }
      }),
    );
    const failed = results.filter((r) => r !== undefined);
    const failing = failed.map((f) => f.dependency);
    const key = failing.join(',');
    if (key !== this.lastFailing) {
      // The reasons stay in the log; the probe's answer names the dependencies only.
      if (failed.length > 0) {
        this.log.warn(
          { failing: Object.fromEntries(failed.map((f) => [f.dependency, describe(f.err)])) },
          'not ready: dependencies unreachable',
        );
      } else if (this.lastFailing) this.log.info('ready again: every dependency answers');
      this.lastFailing = key;
    }
    return failing.length > 0 ? { status: 'unavailable', failing } : { status: 'ready' };
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
