import type { Timers } from '../runtime/timers.js';

/**
 * Timers on a clock that only moves when the test says: `advance` runs every timer that falls
 * due, in time order, to its end; those due at one instant together (the timers they set on the
 * way run too if they fall due).
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
      const due = this.pending.filter((entry) => entry.at <= end);
      if (due.length === 0) break;
      // The timers due at the same instant run at once, as two processes' would.
      const at = Math.min(...due.map((entry) => entry.at));
      const now = due.filter((entry) => entry.at === at).sort((a, b) => a.seq - b.seq);
      for (const entry of now) this.pending.splice(this.pending.indexOf(entry), 1);
      this.time = at;
      await Promise.all(now.map((entry) => entry.run()));
    }
    this.time = end;
  }
}
