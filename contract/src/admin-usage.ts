// Usage at a glance (issue 29, part 6): what the admin screen draws as small charts. Only admins
// read it (GET API_ROUTES.adminUsage); nothing in it is an internal (no URLs with credentials,
// no paths): a ComfyUI server is named by its host:port.
import { z } from 'zod';

/** How many calendar days the charts cover, today included. */
export const USAGE_DAYS = 30;

/** The users drawn on their own in the per-user chart; everyone else is summed as "others". */
export const USAGE_TOP_USERS = 5;

/** The kinds of job the queue chart shows, in its order. */
export const USAGE_JOB_KINDS = ['preview', 'hd', 'maps', 'print'] as const;
export type UsageJobKind = (typeof USAGE_JOB_KINDS)[number];

/**
 * An image engine's state: 'up' takes jobs; 'down' failed and waits to be checked again;
 * 'checking' is being asked again; 'incomplete' answers but lacks node types or models;
 * 'failing' answers but its prompts keep failing.
 */
export const ENGINE_STATES = ['up', 'checking', 'incomplete', 'failing', 'down'] as const;
export type EngineState = (typeof ENGINE_STATES)[number];

const count = z.number().int().nonnegative();

/** One UTC calendar day (YYYY-MM-DD) of the range: the images made that day. */
export const usageDaySchema = z.object({
  day: z.iso.date(),
  ldImages: count,
  hdImages: count,
  /** Images (LD and HD) of each of `topUsers`, in their order. */
  byUser: z.array(count),
  /** Images of everyone not in `topUsers`. */
  others: count,
});
export type UsageDay = z.infer<typeof usageDaySchema>;

export const usageQueueSchema = z.object({
  kind: z.enum(USAGE_JOB_KINDS),
  queued: count,
  running: count,
});
export type UsageQueue = z.infer<typeof usageQueueSchema>;

export const usageEngineSchema = z.object({
  /** 'builtin': the CPU engine inside the server (one, always up); 'comfyui': one server. */
  engine: z.enum(['builtin', 'comfyui']),
  /** A ComfyUI server's host:port; null for the builtin engine. */
  label: z.string().nullable(),
  state: z.enum(ENGINE_STATES),
});
export type UsageEngine = z.infer<typeof usageEngineSchema>;

export const adminUsageSchema = z.object({
  /**
   * The last USAGE_DAYS calendar days in UTC, oldest first and today last, days without images
   * included. Every image made counts on the day it was made, HD images removed by the retention
   * policy and images of removed users too.
   */
  days: z.array(usageDaySchema),
  /** The users who made the most images over the range, most first (at most USAGE_TOP_USERS). */
  topUsers: z.array(z.string()),
  /** Jobs waiting and running now, one entry per kind of USAGE_JOB_KINDS. */
  queue: z.array(usageQueueSchema),
  engines: z.array(usageEngineSchema),
});
export type AdminUsage = z.infer<typeof adminUsageSchema>;

/** The UTC calendar day (YYYY-MM-DD) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The USAGE_DAYS UTC days ending with today's, oldest first. */
export function usageDayRange(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: USAGE_DAYS }, (_, i) =>
    utcDay(new Date(today - (USAGE_DAYS - 1 - i) * 86_400_000)),
  );
}
