import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/** A count of points per key in fixed windows: `points` allowed per `duration` seconds. */
export interface LimiterOptions {
  /** Keeps the counts of one limit apart from another's in a shared store. */
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * The part of rate-limiter-flexible's limiters Tessera uses, so that its memory and Redis
 * limiters and the database's (store/rate-limits.ts) stand for one another. `consume` rejects
 * with a RateLimiterRes once the key's points are used up (the point is counted all the same).
 */
export interface SharedLimiter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  reward(key: string, points?: number): Promise<unknown>;
  /** The key's count in its current window; null when it has none. */
  get(key: string): Promise<RateLimiterRes | null>;
  delete(key: string): Promise<unknown>;
}

/** Makes the limiters of one store: this process's memory, the database or Redis. */
export type LimiterFactory = (options: LimiterOptions) => SharedLimiter;

/** Counts in this process only: right for the embedded single-process server. */
export const memoryLimiters: LimiterFactory = (options) => new RateLimiterMemory(options);
