import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface LoginLimits {
  /** Attempts one address may make, whatever the outcome, per window. */
  perAddress: { points: number; seconds: number };
  /** Failed attempts one username may suffer before it is blocked for the window. */
  perUsername: { points: number; seconds: number };
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAddress: { points: 30, seconds: 60 },
  perUsername: { points: 10, seconds: 15 * 60 },
};

export type GuardVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Brute-force protection for anything that checks a password: per address and per username. */
export class LoginGuard {
  private readonly byAddress: RateLimiterMemory;
  private readonly failuresByUsername: RateLimiterMemory;

  constructor(limits: LoginLimits = DEFAULT_LOGIN_LIMITS) {
    this.byAddress = new RateLimiterMemory({
      keyPrefix: 'addr',
      points: limits.perAddress.points,
      duration: limits.perAddress.seconds,
    });
    this.failuresByUsername = new RateLimiterMemory({
      keyPrefix: 'user',
      points: limits.perUsername.points,
      duration: limits.perUsername.seconds,
      blockDuration: limits.perUsername.seconds,
    });
  }

  /** Counts an attempt from this address; refuses it when the address or the username is over its limit. */
  async admit(username: string, address: string): Promise<GuardVerdict> {
    const blocked = await this.failuresByUsername.get(username.toLowerCase());
    if (blocked && blocked.remainingPoints <= 0) return refuse(blocked);
    try {
      await this.byAddress.consume(address);
      return { allowed: true };
    } catch (res) {
      if (res instanceof RateLimiterRes) return refuse(res);
      throw res;
    }
  }

  async recordFailure(username: string): Promise<void> {
    try {
      await this.failuresByUsername.consume(username.toLowerCase());
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
    }
  }

  async recordSuccess(username: string): Promise<void> {
    await this.failuresByUsername.delete(username.toLowerCase());
  }
}

function refuse(res: RateLimiterRes): GuardVerdict {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
