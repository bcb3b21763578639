import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How the process fared while it ran: the worst event-loop delay (a request waits that long
 * behind work on the loop) and the peak resident memory. Logged once at shutdown, so a load
 * run (`npm run load`) or an operator reads them from the log.
 */
export function watchProcess(): { stats(): ProcessStats; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stats: () => ({
      eventLoopDelayMaxMs: round(histogram.max / 1e6),
      eventLoopDelayP99Ms: round(histogram.percentile(99) / 1e6),
      // resourceUsage reports kilobytes.
      peakRssMb: round(process.resourceUsage().maxRSS / 1024),
    }),
    stop: () => histogram.disable(),
  };
}

export interface ProcessStats {
  eventLoopDelayMaxMs: number;
  eventLoopDelayP99Ms: number;
  peakRssMb: number;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
