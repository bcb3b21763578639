/** What the embedded broker allows one connection, one user and one address (README: configuration). */
export interface BrokerLimits {
  /** Commands a connection may publish per second, on average... */
  publishPerSecond: number;
  /** ...and at once after a quiet spell (a page load lists several pages). */
  publishBurst: number;
  /** Live authenticated connections of one user (browser tabs, devices). */
  connectionsPerUser: number;
  /** WebSocket connections from one address that have not yet logged in. */
  unauthenticatedPerAddress: number;
  /** How long a new connection has to send its MQTT CONNECT. */
  connectTimeoutMs: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  publishPerSecond: 50,
  publishBurst: 200,
  connectionsPerUser: 16,
  unauthenticatedPerAddress: 100,
  connectTimeoutMs: 10_000,
};

/** A token bucket: `burst` publications at once, refilled at `perSecond`. */
export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one token; false when there is none left. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * One connection's publish allowance: within the rate a command passes; over it, it is refused
 * with an answer; a connection that goes on sending refused commands (twice its burst in a
 * row) is flooding and gets disconnected, since answering each of its commands costs too.
 */
export class PublishAllowance {
  private readonly bucket: RateLimiter;
  private refusedInARow = 0;

  constructor(private readonly limits: Pick<BrokerLimits, 'publishPerSecond' | 'publishBurst'>) {
    this.bucket = new RateLimiter(limits.publishPerSecond, limits.publishBurst);
  }

  check(now = Date.now()): 'pass' | 'refuse' | 'disconnect' {
    if (this.bucket.take(now)) {
      this.refusedInARow = 0;
      return 'pass';
    }
    this.refusedInARow += 1;
    return this.refusedInARow > 2 * this.limits.publishBurst ? 'disconnect' : 'refuse';
  }
}
