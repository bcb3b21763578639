import type { LimiterFactory } from './shared-limiter.js';
import type { SharedLimitsSettings } from './settings.js';

export { connectRedisLimiters } from './redis.js';
export { memoryLimiters } from './shared-limiter.js';
export type { LimiterFactory, LimiterOptions, SharedLimiter } from './shared-limiter.js';
export type { SharedLimitsSettings } from './settings.js';

/**
 * The limiters of the configured store, and how to let go of it. The root chooses the store
 * (container.ts): this process's memory, Redis, or the database's (store/rate-limits.ts).
 */
export interface Limiters {
  store: SharedLimitsSettings['store'];
  limiters: LimiterFactory;
  close(): Promise<void>;
}
