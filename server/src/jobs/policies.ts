import { exponentialBackoff, type JobPolicies } from './runner.js';

/**
 * Live (queued or running) print files one user may have (issue 26): each takes a core for a
 * minute or more, and a user orders them one image at a time.
 */
export const PRINT_MAX_LIVE_PER_OWNER = 3;

/** Parts of the policies a test may replace: quicker HD retries. */
export interface JobPolicyOverrides {
  hdRetryDelayMs?: (attempt: number) => number;
}

/** What the policies are made from (the container takes it from the configuration). */
export interface JobPolicySettings {
  /** Engine jobs running at once (JOB_CONCURRENCY). */
  jobConcurrency: number;
  /** Servers the engine spreads its jobs over (COMFYUI_URLS); 0 for a CPU engine. */
  engineServers: number;
  /** Live (queued or running) jobs one user may have, per kind (MAX_QUEUED_*_PER_USER). */
  maxQueuedPerUser: { preview: number; hd: number };
}

/** How many jobs run at once, how often each is tried, how many one user may queue. */
export function jobPolicies(
  settings: JobPolicySettings,
  overrides: JobPolicyOverrides = {},
): JobPolicies {
  // CPU engines run one job per core budget; with ComfyUI every configured GPU server takes one.
  const concurrency = Math.max(settings.jobConcurrency, settings.engineServers);
  return {
    preview: {
      concurrency,
      maxLivePerOwner: settings.maxQueuedPerUser.preview,
      ownerQuota: 'preview',
      // A second attempt covers a crash or restart mid-job; the browser shows a real failure.
      maxAttempts: 2,
      retryDelayMs: exponentialBackoff(1000, 10_000),
    },
    hd: {
      concurrency,
      maxLivePerOwner: settings.maxQueuedPerUser.hd,
      ownerQuota: 'hd',
      // Each failed attempt is told to the user and retried after a growing pause.
      maxAttempts: 3,
      retryDelayMs: overrides.hdRetryDelayMs ?? exponentialBackoff(5000, 60_000),
    },
    maps: {
      // One at a time: a 200 MP image's maps take a core for minutes, and HD needs the rest.
      concurrency: 1,
      maxLivePerOwner: settings.maxQueuedPerUser.hd,
      maxAttempts: 2,
      retryDelayMs: exponentialBackoff(2000, 30_000),
    },
    print: {
      // One at a time: libvips already spreads one print over every core.
      concurrency: 1,
      maxLivePerOwner: PRINT_MAX_LIVE_PER_OWNER,
      maxAttempts: 2,
      retryDelayMs: exponentialBackoff(2000, 30_000),
    },
  };
}
