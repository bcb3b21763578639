// Finding LD images (issue 13, feature 8): the search a list-low-definition command may carry,
// and the keys the server matches it against.
import { z } from 'zod';
import { PROMPT_MAX_LENGTH } from './generation.js';
import { readImageDate } from './dates.js';
import { readImageMetadata } from './metadata.js';

/** The gallery's orders: by the image's date (newest or oldest first) or by file name. */
export const LD_SORTS = ['newest', 'oldest', 'name'] as const;
export type LdSort = (typeof LD_SORTS)[number];
export const DEFAULT_LD_SORT: LdSort = 'newest';

/** Prompts are at most this long, so a longer search could match none. */
export const SEARCH_TEXT_MAX_LENGTH = PROMPT_MAX_LENGTH;
/** Seeds as digits; 20 digits hold any unsigned 64-bit engine seed. */
export const SEARCH_SEED_PATTERN = /^\d{1,20}$/;

/** Search key of a text: accents stripped, lower-case, so 'Cerámica' and 'ceramica' meet. */
export function textSearchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A seed as digits without leading zeros, so '007' and '7' are one seed. */
export function seedSearchKey(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** ISO dates with 4-digit years only: their text order is their time order. */
const FIRST_TIME = Date.UTC(0, 0, 1);
const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The instant an image is dated at, as sortable ISO text: its metadata date (what the Date column
 * shows), else `fallback` (when it was added), so the order and the date filter match the screen.
 */
export function imageDateKey(metadata: Record<string, unknown>, fallback: string): string {
  const time = readImageDate(metadata)?.getTime();
  return time !== undefined && time >= FIRST_TIME && time <= LAST_TIME
    ? new Date(time).toISOString()
    : fallback;
}

/** What an image is found by: the columns the server keeps beside its metadata. */
export interface ImageSearchKeys {
  /** The positive prompt's textSearchKey ('' when it has none). */
  prompt: string;
  /** The seed's seedSearchKey, or null when it has none. */
  seed: string | null;
  /** imageDateKey. */
  datedAt: string;
}

export function imageSearchKeys(
  metadata: Record<string, unknown>,
  addedAt: string,
): ImageSearchKeys {
  const { positivePrompt, seed } = readImageMetadata(metadata);
  return {
    prompt: textSearchKey(positivePrompt ?? ''),
    seed: seed === undefined ? null : seedSearchKey(seed),
    datedAt: imageDateKey(metadata, addedAt),
  };
}

/** An instant with its offset (what `Date.toISOString()` writes), kept in the same UTC form. */
const instantSchema = z.iso
  .datetime({ offset: true, error: 'Must be an ISO date and time, such as 2025-01-31T23:00:00Z' })
  .transform((text) => new Date(text).toISOString());

/**
 * The search of a list-low-definition command. Every field is optional; together they keep the
 * images that meet all of them. Strict, so a misspelt field is refused rather than ignored.
 */
export const ldSearchSchema = z.strictObject({
  /** Part of the positive prompt, ignoring case and accents; blank matches all. */
  text: z.string().max(SEARCH_TEXT_MAX_LENGTH).optional(),
  /** The exact seed, as digits. */
  seed: z
    .string()
    .regex(SEARCH_SEED_PATTERN, { message: 'The seed must be a whole number' })
    .optional(),
  /** Dated at or after this instant. */
  from: instantSchema.optional(),
  /** Dated before this instant (exclusive, so the day after a last day is its end). */
  to: instantSchema.optional(),
  /** Only starred images. */
  starred: z.boolean().optional(),
  sort: z.enum(LD_SORTS).optional(),
});

/** A search as a client writes it. */
export type LdSearchInput = z.input<typeof ldSearchSchema>;
/** A search after parsing (instants in UTC ISO form). */
export type LdSearch = z.output<typeof ldSearchSchema>;
