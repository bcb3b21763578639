import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { LimiterFactory } from './shared-limiter.js';

/** A Redis connection and the limiters counted in it (REDIS_URL). */
export interface RedisLimiters {
  limiters: LimiterFactory;
  close(): Promise<void>;
}

/**
 * Limiters kept in Redis, every key under `keyPrefix` (REDIS_KEY_PREFIX), so that several
 * Tessera installations, or test runs, may share one Redis. A Redis that cannot be reached
 * fails the consumption (the caller decides), it does not queue commands for later.
 */
export async function connectRedisLimiters(url: string, keyPrefix: string): Promise<RedisLimiters> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  // Errors surface on each command; the connection's own events would otherwise go unhandled.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new Error(
      `REDIS_URL: cannot reach Redis (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return {
    limiters: (options) =>
      new RateLimiterRedis({
        storeClient: client,
        ...options,
        keyPrefix: `${keyPrefix}${options.keyPrefix}`,
      }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
