/**
 * The clock and the timers of work that runs on a schedule (the daily HD retention run), as a
 * port: a test hands in a fake one and moves its time on, rather than waiting for real time.
 */
export interface Timers {
  now(): Date;
  /** Runs `run` once, `ms` from now; the result cancels it. */
  after(ms: number, run: () => Promise<void>): () => void;
}

/** Real time. The timers do not keep the process alive: they are not its reason to run. */
export const systemTimers: Timers = {
  now: () => new Date(),
  after(ms, run) {
    const timer = setTimeout(() => void run(), ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
