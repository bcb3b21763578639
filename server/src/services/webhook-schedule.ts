/**
 * When a delivery that failed goes again (issue 30, part 3): 30 s, 2 min, 10 min, 1 h, 3 h, 6 h,
 * then every 12 h, for as long as the next try falls within a day of the delivery's start (its
 * creation, or the last resend). Eight tries at most: the last about 22 h after the first.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  30_000,
  120_000,
  600_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
] as const;

export const WEBHOOK_RETRY_WINDOW_MS = 24 * 3_600_000;

/** When try `attemptsMade + 1` goes, or undefined when it would fall past the day: give up. */
export function nextWebhookAttempt(
  windowStart: Date,
  attemptsMade: number,
  now: Date,
): Date | undefined {
  const delays = WEBHOOK_RETRY_DELAYS_MS;
  const delay = delays[Math.min(attemptsMade, delays.length) - 1] ?? delays[0];
  const at = new Date(now.getTime() + delay);
  return at.getTime() - windowStart.getTime() <= WEBHOOK_RETRY_WINDOW_MS ? at : undefined;
}
