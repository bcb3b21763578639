import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * One measurement made in a child process of its own, so that its peak memory (the maximum
 * resident set, worker threads included) is its own and not the bench's or an earlier run's.
 */
export interface ChildMeasurement {
  seconds: number;
  /** User + system CPU time of the child, all threads. */
  cpuSeconds: number;
  peakBytes: number;
  /** Named stages' seconds, where the measurement times them apart. */
  parts?: Record<string, number>;
}

/** In the child: prints the measurement, with this process's usage so far, as its last line. */
export function printMeasurement(seconds: number, parts?: Record<string, number>): void {
  const usage = process.resourceUsage();
  const result: ChildMeasurement = {
    seconds,
    ...(parts && { parts }),
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    peakBytes: usage.maxRSS * 1024,
  };
  console.log(JSON.stringify(result));
}

/**
 * In the bench: runs the bench's own script (`scriptUrl`, its `import.meta.url`) again in a child
 * with `args`, the first of which names the measurement, and reads what the child printed.
 */
export function measureInChild(
  scriptUrl: string,
  args: readonly [string, ...string[]],
): ChildMeasurement {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(scriptUrl), ...args],
    { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  if (child.status !== 0) throw new Error(`${args[0]} run failed: ${child.stderr}`);
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as ChildMeasurement;
}
