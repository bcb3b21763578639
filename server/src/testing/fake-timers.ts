import type { Timers } from '../runtime/timers.js';

/**
 * Timers on a clock that only moves when the test says: `advance` runs every timer that falls
 * due, in time order, each to its end (the timers it sets on the way run too if they fall due).
 */
export class FakeTimers implements Timers {
  private time: number;
  private seq = 0;
  private readonly pending: { at: number; seq: number; run: () => Promise<void> }[] = [];

  constructor(start: Date) {
    this.time = start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  after(ms: number, run: () => Promise<void>): () => void {
    const entry = { at: this.time + Math.max(0, ms), seq: this.seq++, run };
    this.pending.push(entry);
    return () => {
      const index = this.pending.indexOf(entry);
      if (index >= 0) this.pending.splice(index, 1);
    };
  }

  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = this.pending
        .filter((entry) => entry.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.pending.splice(this.pending.indexOf(next), 1);
      this.time = next.at;
      await next.run();
    }
    this.time = end;
  }
}
