// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- issue 24: settings split (i24-config)
import type { Config } from '../config.js';
import type { Db } from '../store/database.js';
import { databaseLimiters } from '../store/rate-limits.js';
import { connectRedisLimiters } from './redis.js';
import { memoryLimiters, type LimiterFactory } from './shared-limiter.js';

export type { LimiterFactory, LimiterOptions, SharedLimiter } from './shared-limiter.js';

/** The limiters of the configured store, and how to let go of it. */
export interface Limiters {
  store: Config['sharedLimits']['store'];
  limiters: LimiterFactory;
  close(): Promise<void>;
}

/**
 * Where login throttling and the per-user command rate are counted (config `sharedLimits`):
 * Redis with REDIS_URL, else the database when several processes may run (an external broker),
 * else this process's memory (the embedded broker is one process).
 */
export async function openLimiters(settings: Config['sharedLimits'], db: Db): Promise<Limiters> {
  switch (settings.store) {
    case 'redis': {
      const redis = await connectRedisLimiters(settings.url, settings.keyPrefix);
      return { store: 'redis', ...redis };
    }
    case 'database':
      return { store: 'database', limiters: databaseLimiters(db), close: () => Promise.resolve() };
    case 'memory':
      return { store: 'memory', limiters: memoryLimiters, close: () => Promise.resolve() };
  }
}
