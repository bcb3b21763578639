import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Samples the process's memory while it runs: its RSS, and what is alive (heap and buffers) just
 * after a full garbage collection, so garbage the collector has not reached yet is not counted.
 * It samples every 200 ms, and whenever `sample` is called (at the moment the most is held).
 */
export function memoryWatch() {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const live = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const before = { rss: process.memoryUsage().rss, live: live() };
  const peak = { ...before };
  const sample = () => {
    gc();
    peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
    peak.live = Math.max(peak.live, live());
  };
  const timer = setInterval(sample, 200);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
    },
    liveGrowth: () => peak.live - before.live,
    rssGrowth: () => peak.rss - before.rss,
  };
}
