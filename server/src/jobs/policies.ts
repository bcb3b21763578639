// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- issue 24: settings split (i24-config)
import type { Config } from '../config.js';
import { exponentialBackoff, type JobPolicies } from './runner.js';

/** Parts of the policies a test may replace: quicker HD retries. */
export interface JobPolicyOverrides {
  hdRetryDelayMs?: (attempt: number) => number;
}

/** How many jobs run at once, how often each is tried, how many one user may queue. */
export function jobPolicies(
  config: Pick<Config, 'jobConcurrency' | 'comfyui' | 'maxQueuedPerUser'>,
  overrides: JobPolicyOverrides = {},
): JobPolicies {
  // CPU engines run one job per core budget; with ComfyUI every configured GPU server takes one.
  const concurrency = Math.max(config.jobConcurrency, config.comfyui?.urls.length ?? 0);
  return {
    preview: {
      concurrency,
      maxLivePerOwner: config.maxQueuedPerUser.preview,
      // A second attempt covers a crash or restart mid-job; the browser shows a real failure.
      maxAttempts: 2,
      retryDelayMs: exponentialBackoff(1000, 10_000),
    },
    hd: {
      concurrency,
      maxLivePerOwner: config.maxQueuedPerUser.hd,
      // Each failed attempt is told to the user and retried after a growing pause.
      maxAttempts: 3,
      retryDelayMs: overrides.hdRetryDelayMs ?? exponentialBackoff(5000, 60_000),
    },
    maps: {
      // One at a time: a 200 MP image's maps take a core for minutes, and HD needs the rest.
      concurrency: 1,
      maxLivePerOwner: config.maxQueuedPerUser.hd,
      maxAttempts: 2,
      retryDelayMs: exponentialBackoff(2000, 30_000),
    },
  };
}
