/** Nearest-rank percentile (0 < p <= 100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Milliseconds with enough digits to compare sub-millisecond figures. */
export function ms(value: number): string {
  const digits = value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ms`;
}

export function ratio(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)}×`;
}

export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

/** Bounded in count and in time: stops at whichever comes first. */
export interface Budget {
  samples: number;
  timeLimitMs: number;
}

export function sleep(msToWait: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, msToWait));
}
