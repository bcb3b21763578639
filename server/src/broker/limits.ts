/** What the embedded broker allows one connection, one user and one address (README: configuration). */
export interface BrokerLimits {
  /**
   * Points a user may publish per second, all their connections together, on average (a command
   * costs one, and one more per started 4 KiB past the first: limits/user-budget.ts)...
   */
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

export { RateLimiter } from '../limits/token-bucket.js';
