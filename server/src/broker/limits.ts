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
