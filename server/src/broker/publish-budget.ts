import { RateLimiter } from '../limits/token-bucket.js';
import { UserBudgets } from '../limits/user-budget.js';
import type { BrokerLimits } from './limits.js';

/**
 * What becomes of a user's PUBLISH: it passes; it is refused with an answer; it is dropped
 * unanswered (the user had their share of answers this second); or its connection is closed.
 */
export type PublishVerdict = 'pass' | 'refuse' | 'drop' | 'disconnect';

/**
 * A command costs its user once per connection its answer goes to, but no more than this many
 * times. Charged for all 16 connections, a user with every tab open had 3 commands a second and 12
 * at once: one Dashboard load (about 20 list pages with 1,000 images and 50 tags) was refused in
 * part. Charged for at most 4, such a user has 12 commands a second and 50 at once (two tabs
 * reloading together), and 16 flooding connections still get only what 4 would.
 */
export const MAX_CHARGED_CONNECTIONS = 4;

/**
 * The embedded broker's publish limits. One budget per user, shared by all their connections
 * (16 tabs get what four get) and charged by messages and bytes before anything parses the
 * payload. A connection may be refused a tenth of the burst, forgiven at a tenth of the rate:
 * past that it keeps going over its user's budget and is closed, since even refusing it costs the
 * others (and all that passes is answered to each of the user's connections).
 */
export class PublishBudget {
  private readonly users: UserBudgets;
  private readonly strikes = new WeakMap<object, RateLimiter>();

  constructor(private readonly limits: Pick<BrokerLimits, 'publishPerSecond' | 'publishBurst'>) {
    this.users = new UserBudgets({
      perSecond: limits.publishPerSecond,
      burst: limits.publishBurst,
    });
  }

  /**
   * The verdict on a command of `bytes` that `connection` publishes for `user`, who has
   * `connections` live connections: each of them receives the command's answer, so the command
   * costs its user once for each, up to {@link MAX_CHARGED_CONNECTIONS} (one tab gets the whole
   * budget, four or more share it).
   */
  check(
    connection: object,
    user: string,
    bytes: number,
    connections: number,
    now = Date.now(),
  ): PublishVerdict {
    const charged = Math.min(Math.max(1, connections), MAX_CHARGED_CONNECTIONS);
    if (this.users.charge(user, bytes, now, charged)) return 'pass';
    let strikes = this.strikes.get(connection);
    if (!strikes) {
      const { publishPerSecond, publishBurst } = this.limits;
      strikes = new RateLimiter(publishPerSecond / 10, Math.ceil(publishBurst / 10), now);
      this.strikes.set(connection, strikes);
    }
    if (!strikes.take(now)) return 'disconnect';
    return this.users.mayAnswerRefusal(user, now) ? 'refuse' : 'drop';
  }
}
