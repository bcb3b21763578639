import type { ProgressReporter } from '../engine.js';

/** A reporter that passes on only rising whole percents, 0..100. */
export function rising(progress: ProgressReporter): (percent: number) => void {
  let last = -1;
  return (percent) => {
    const value = Math.max(0, Math.min(100, Math.floor(percent)));
    if (value <= last) return;
    last = value;
    progress(value);
  };
}
