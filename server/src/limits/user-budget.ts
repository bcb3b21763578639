import { RateLimiter } from './token-bucket.js';

/** Points a second on average, and at once after a quiet spell. */
export interface BudgetRate {
  perSecond: number;
  burst: number;
}

/** Every started 4 KiB of a command costs one more point: a 60 KB command costs 15. */
export const BYTES_PER_POINT = 4096;

/**
 * Refusals answered per user: past these, a refused command is dropped unanswered. Each answer
 * goes to every connection of the user (they all read the query topics), so answering every
 * refused command of a flood would multiply it by the user's connections.
 */
export const REFUSAL_ANSWERS: BudgetRate = { perSecond: 2, burst: 10 };

/** Users kept before the idle ones (whose buckets are full again) are forgotten. */
const SWEEP_AT = 10_000;

/** What a command costs its user: one point, plus one for each started 4 KiB after the first. */
export function commandCost(bytes: number): number {
  return 1 + Math.floor(Math.max(0, bytes - 1) / BYTES_PER_POINT);
}

/** Token buckets by user name, created full on first use and forgotten once idle. */
class BucketsByUser {
  private readonly buckets = new Map<string, RateLimiter>();

  constructor(private readonly rate: BudgetRate) {}

  take(user: string, now: number, cost: number): boolean {
    let bucket = this.buckets.get(user);
    if (!bucket) {
      if (this.buckets.size >= SWEEP_AT) this.forgetIdle(now);
      bucket = new RateLimiter(this.rate.perSecond, this.rate.burst, now);
      this.buckets.set(user, bucket);
    }
    return bucket.take(now, cost);
  }

  private forgetIdle(now: number): void {
    for (const [user, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(user);
  }
}

/**
 * Each user's publish budget, shared by all their connections and charged by messages and by
 * bytes ({@link commandCost}) before anything reads the payload, with the refusals it answers
 * bounded per user ({@link REFUSAL_ANSWERS}).
 */
export class UserBudgets {
  private readonly budgets: BucketsByUser;
  private readonly answers = new BucketsByUser(REFUSAL_ANSWERS);

  constructor(rate: BudgetRate) {
    this.budgets = new BucketsByUser(rate);
  }

  /**
   * Charges a command of `bytes` to `user`, `times` over (once per connection its answer goes
   * to, where that is known): true when it is within their budget.
   */
  charge(user: string, bytes: number, now = Date.now(), times = 1): boolean {
    return this.budgets.take(user, now, commandCost(bytes) * times);
  }

  /** Whether a refusal to `user` is answered (a few a second) or dropped unanswered. */
  mayAnswerRefusal(user: string, now = Date.now()): boolean {
    return this.answers.take(user, now, 1);
  }
}
