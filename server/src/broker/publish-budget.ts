import { RateLimiter } from '../limits/token-bucket.js';
import { UserBudgets } from '../limits/user-budget.js';
import type { BrokerLimits } from './limits.js';

/**
 * What becomes of a user's PUBLISH: it passes; it is refused with an answer; it is dropped
 * unanswered (the user had their share of answers this second); or its connection is closed.
 */
export type PublishVerdict = 'pass' | 'refuse' | 'drop' | 'disconnect';

/**
 * The embedded broker's publish limits. One budget per user, shared by all their connections
 * (16 tabs get what one gets) and charged by messages and bytes before anything parses the
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
   * costs its user once for each (one tab gets the whole budget, sixteen share it).
   */
  check(
    connection: object,
    user: string,
    bytes: number,
    connections: number,
    now = Date.now(),
  ): PublishVerdict {
    if (this.users.charge(user, bytes, now, Math.max(1, connections))) return 'pass';
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
