import { RateLimiterRes } from 'rate-limiter-flexible';
import {
  memoryLimiters,
  type LimiterFactory,
  type SharedLimiter,
} from '../limits/shared-limiter.js';

/** Where a password is checked: each channel counts its failures apart (see `LoginAttempt`). */
export type LoginChannel = 'http' | 'mqtt';

/**
 * One password check. The channel keeps the counts of the login page apart from the broker's:
 * a browser tab still reconnecting with a replaced password fails over MQTT every second, and
 * must not lock its owner out of the login page where the new password is typed.
 */
export interface LoginAttempt {
  username: string;
  address: string;
  channel: LoginChannel;
}

export interface LoginLimits {
  /** Failed checks one username may suffer from one address (per channel) per window. */
  perUsernameAndAddress: { points: number; seconds: number };
  /** Failed checks one address may make, whatever the usernames (per channel), per window. */
  perAddress: { points: number; seconds: number };
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perUsernameAndAddress: { points: 10, seconds: 15 * 60 },
  perAddress: { points: 50, seconds: 15 * 60 },
};

export type GuardVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Brute-force protection for anything that checks a password. Only failures count, per
 * (username, address) and per address, so failures from elsewhere never refuse the owner's
 * right password (OWASP: a lockout anyone can trigger is a denial of service). Each check is
 * counted as a failure before the password is compared, so parallel attempts cannot slip
 * past a limit, and given back when the password was right.
 *
 * An interface; {@link CountingLoginGuard} keeps the counts where its limiters do: this process's
 * memory, or the database or Redis that several server processes share (config `sharedLimits`).
 */
export interface LoginGuard {
  /** Counts the attempt as a failure in advance; refuses it when a limit is reached. */
  reserve(attempt: LoginAttempt): Promise<GuardVerdict>;
  /** The password was right: gives the advance back and forgets this username's failures here. */
  succeeded(attempt: LoginAttempt): Promise<void>;
}

/** The counts kept by limiters of one store (memory, database, Redis). */
export class CountingLoginGuard implements LoginGuard {
  private readonly byUsernameAndAddress: SharedLimiter;
  private readonly byAddress: SharedLimiter;

  constructor(limiters: LimiterFactory, limits: LoginLimits = DEFAULT_LOGIN_LIMITS) {
    this.byUsernameAndAddress = limiters({
      keyPrefix: 'login-user-address',
      points: limits.perUsernameAndAddress.points,
      duration: limits.perUsernameAndAddress.seconds,
    });
    this.byAddress = limiters({
      keyPrefix: 'login-address',
      points: limits.perAddress.points,
      duration: limits.perAddress.seconds,
    });
  }

  async reserve(attempt: LoginAttempt): Promise<GuardVerdict> {
    const pair = pairKey(attempt);
    const address = addressKey(attempt);
    // A refused attempt checks no password, so it is not counted: each count stays the number
    // of checks admitted that failed or are under way.
    try {
      await this.byUsernameAndAddress.consume(pair);
    } catch (res) {
      const verdict = refusal(res);
      await this.byUsernameAndAddress.reward(pair);
      return verdict;
    }
    try {
      await this.byAddress.consume(address);
      return { allowed: true };
    } catch (res) {
      const verdict = refusal(res);
      await Promise.all([this.byAddress.reward(address), this.byUsernameAndAddress.reward(pair)]);
      return verdict;
    }
  }

  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.byAddress.reward(addressKey(attempt));
    // The owner proved the password from this address: neither channel's failures count here.
    await Promise.all(
      (['http', 'mqtt'] as const).map((channel) =>
        this.byUsernameAndAddress.delete(pairKey({ ...attempt, channel })),
      ),
    );
  }
}

/** The counts of one process, in memory: the embedded single-process server. */
export class MemoryLoginGuard extends CountingLoginGuard {
  constructor(limits: LoginLimits = DEFAULT_LOGIN_LIMITS) {
    super(memoryLimiters, limits);
  }
}

function addressKey({ channel, address }: LoginAttempt): string {
  return `${channel}:${address}`;
}

function pairKey(attempt: LoginAttempt): string {
  return `${addressKey(attempt)}:${attempt.username.toLowerCase()}`;
}

/** The verdict for a limiter's rejection; anything else (a store failing) is thrown on. */
function refusal(res: unknown): GuardVerdict {
  if (!(res instanceof RateLimiterRes)) throw res;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
