// Image dates of SPEC §3: created_at or creation_date, as an ISO string or an epoch number.
import { DEFAULT_LOCALE, INTL_LOCALES, type Locale } from './i18n.js';
import { toFiniteNumber } from './numbers.js';

/** Epoch values below this are seconds, the rest milliseconds (9e11 ms is in 1998, 9e11 s far future). */
export const EPOCH_SECONDS_LIMIT = 9e11;

/** Shown where an image has no readable date. */
export const MISSING_DATE_TEXT = '-';

/** A Date from an epoch number, a numeric string or a date string; undefined when unreadable. */
export function parseDateValue(value: unknown): Date | undefined {
  const epoch = toFiniteNumber(value);
  let date: Date;
  if (epoch !== undefined) {
    date = new Date(epoch < EPOCH_SECONDS_LIMIT ? epoch * 1000 : epoch);
  } else if (typeof value === 'string' && value.trim() !== '') {
    date = new Date(value.trim());
  } else {
    return undefined;
  }
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The image's date: created_at when readable, else creation_date. */
export function readImageDate(metadata: Record<string, unknown>): Date | undefined {
  return parseDateValue(metadata['created_at']) ?? parseDateValue(metadata['creation_date']);
}

/**
 * The image's date in the interface's locale (es-ES by default, as SPEC says), or '-' when it
 * has none.
 */
export function formatImageDate(
  metadata: Record<string, unknown>,
  timeZone?: string,
  locale: Locale = DEFAULT_LOCALE,
): string {
  const date = readImageDate(metadata);
  return date ? date.toLocaleString(INTL_LOCALES[locale], { timeZone }) : MISSING_DATE_TEXT;
}
