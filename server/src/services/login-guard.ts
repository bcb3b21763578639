import { EventEmitter } from 'node:events';
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
  /**
   * Counts the attempt as a failure in advance; refuses it when confirmed failures reach a
   * limit. While only checks still under way fill a limit, it waits for them to settle.
   */
  reserve(attempt: LoginAttempt): Promise<GuardVerdict>;
  /** The password was right: gives the advance back and forgets this username's failures here. */
  succeeded(attempt: LoginAttempt): Promise<void>;
  /** The password was wrong (or could not be checked): the advance stays, as a failure. */
  failed(attempt: LoginAttempt): Promise<void>;
}

export interface GuardTiming {
  /** How long an attempt waits at most for checks under way before it is refused. */
  maxWaitMs: number;
  /** How often a waiting attempt looks again, for checks settled by other processes. */
  pollMs: number;
}

export const DEFAULT_GUARD_TIMING: GuardTiming = { maxWaitMs: 15_000, pollMs: 100 };

type Admission =
  | { allowed: true }
  | { allowed: false; res: unknown; failures: SharedLimiter; key: string; limit: number };

/**
 * The counts kept by limiters of one store (memory, database, Redis). Two counts per key: the
 * admitted checks (confirmed failures and checks under way), which decides admission atomically
 * so that 50 parallel wrong passwords get exactly 10 checks; and the confirmed failures alone,
 * which decides whether a full count refuses (failures) or waits (right passwords under way).
 */
export class CountingLoginGuard implements LoginGuard {
  private readonly byUsernameAndAddress: SharedLimiter;
  private readonly byAddress: SharedLimiter;
  private readonly failedByUsernameAndAddress: SharedLimiter;
  private readonly failedByAddress: SharedLimiter;
  /** Wakes the attempts of this process waiting for a check to settle. */
  private readonly settled = new EventEmitter().setMaxListeners(0);

  constructor(
    limiters: LimiterFactory,
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly timing: GuardTiming = DEFAULT_GUARD_TIMING,
  ) {
    const pair = {
      points: limits.perUsernameAndAddress.points,
      duration: limits.perUsernameAndAddress.seconds,
    };
    const address = { points: limits.perAddress.points, duration: limits.perAddress.seconds };
    this.byUsernameAndAddress = limiters({ keyPrefix: 'login-user-address', ...pair });
    this.byAddress = limiters({ keyPrefix: 'login-address', ...address });
    this.failedByUsernameAndAddress = limiters({ keyPrefix: 'login-failed-user-address', ...pair });
    this.failedByAddress = limiters({ keyPrefix: 'login-failed-address', ...address });
  }

  async reserve(attempt: LoginAttempt): Promise<GuardVerdict> {
    let deadline = Date.now() + this.timing.maxWaitMs;
    for (;;) {
      const admission = await this.admit(attempt);
      if (admission.allowed) return admission;
      const verdict = refusal(admission.res);
      const failures = (await admission.failures.get(admission.key))?.consumedPoints ?? 0;
      // Failures fill the limit (or checks stuck past the wait): a refusal. Otherwise checks
      // under way do, and a right password among them must not refuse this one.
      if (failures >= admission.limit || Date.now() >= deadline) return verdict;
      // A check settling here is progress: the wait is bounded from the last one, so a long
      // queue of right passwords drains while checks stuck elsewhere still end in a refusal.
      if (await this.nextSettle(deadline)) deadline = Date.now() + this.timing.maxWaitMs;
    }
  }

  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.byAddress.reward(addressKey(attempt));
    // The owner proved the password from this address: neither channel's failures count here.
    await Promise.all(
      (['http', 'mqtt'] as const).flatMap((channel) => [
        this.byUsernameAndAddress.delete(pairKey({ ...attempt, channel })),
        this.failedByUsernameAndAddress.delete(pairKey({ ...attempt, channel })),
      ]),
    );
    this.settled.emit('settled');
  }

  async failed(attempt: LoginAttempt): Promise<void> {
    await Promise.all([
      consumeCounting(this.failedByUsernameAndAddress, pairKey(attempt)),
      consumeCounting(this.failedByAddress, addressKey(attempt)),
    ]);
    this.settled.emit('settled');
  }

  /** One try at both counts; a refused attempt checks no password, so it is not counted. */
  private async admit(attempt: LoginAttempt): Promise<Admission> {
    const pair = pairKey(attempt);
    const address = addressKey(attempt);
    try {
      await this.byUsernameAndAddress.consume(pair);
    } catch (res) {
      await this.byUsernameAndAddress.reward(pair);
      return {
        allowed: false,
        res,
        failures: this.failedByUsernameAndAddress,
        key: pair,
        limit: this.limits.perUsernameAndAddress.points,
      };
    }
    try {
      await this.byAddress.consume(address);
      return { allowed: true };
    } catch (res) {
      await Promise.all([this.byAddress.reward(address), this.byUsernameAndAddress.reward(pair)]);
      return {
        allowed: false,
        res,
        failures: this.failedByAddress,
        key: address,
        limit: this.limits.perAddress.points,
      };
    }
  }

  /**
   * Until a check of this process settles (true), or a poll's time passes for other processes'
   * checks (false).
   */
  private nextSettle(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = (settled: boolean) => {
        clearTimeout(timer);
        this.settled.off('settled', onSettled);
        resolve(settled);
      };
      const onSettled = () => wake(true);
      const wait = Math.max(1, Math.min(this.timing.pollMs, deadline - Date.now()));
      const timer = setTimeout(() => wake(false), wait);
      this.settled.on('settled', onSettled);
    });
  }
}

/** The counts of one process, in memory: the embedded single-process server. */
export class MemoryLoginGuard extends CountingLoginGuard {
  constructor(limits: LoginLimits = DEFAULT_LOGIN_LIMITS, timing?: GuardTiming) {
    super(memoryLimiters, limits, timing);
  }
}

function addressKey({ channel, address }: LoginAttempt): string {
  return `${channel}:${address}`;
}

function pairKey(attempt: LoginAttempt): string {
  return `${addressKey(attempt)}:${attempt.username.toLowerCase()}`;
}

/** Counts a point past the limit all the same (the limiter rejects, the count stands). */
async function consumeCounting(limiter: SharedLimiter, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
  }
}

/** The verdict for a limiter's rejection; anything else (a store failing) is thrown on. */
function refusal(res: unknown): GuardVerdict {
  if (!(res instanceof RateLimiterRes)) throw res;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
