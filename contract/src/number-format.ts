// Numbers in the texts of the interface (issue 30, part 5), written in the chosen language's
// locale (INTL_LOCALES): "17.093 × 8589 px (146,8 MP)" in es-ES, "17,093 × 8,589 px (146.8 MP)"
// in English. Each text object formats with its own language, so a twin is complete by itself.
import { DEFAULT_LOCALE, INTL_LOCALES, type Locale } from './i18n.js';

const formats = new Map<string, Intl.NumberFormat>();

function formatOf(locale: Locale, minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const key = `${locale}:${minDecimals}:${maxDecimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[locale], {
      minimumFractionDigits: minDecimals,
      maximumFractionDigits: maxDecimals,
    });
    formats.set(key, format);
  }
  return format;
}

/** `value` with exactly `decimals` decimals: 146,8 (es) or 146.8 (en). */
export function fixedNumber(value: number, decimals: number, locale: Locale): string {
  return formatOf(locale, decimals, decimals).format(value);
}

/** `value` with at most `maxDecimals` decimals, none when whole: 120,6 · 60 · 0,5. */
export function plainNumber(value: number, maxDecimals: number, locale: Locale): string {
  return formatOf(locale, 0, maxDecimals).format(value);
}

/**
 * A count or any whole number as the locale groups it: es-ES from five digits (1000, 12.345,
 * 1.735.632.384), en-GB from four (1,000, 12,345, 1,735,632,384).
 */
export function formatCount(value: number, locale: Locale = DEFAULT_LOCALE): string {
  return formatOf(locale, 0, 0).format(Math.round(value));
}

/** 1,62 GB, 312,4 MB, 12 kB in es-ES (binary units, as the ZIP download states sizes). */
export function formatFileSize(bytes: number, locale: Locale): string {
  const mb = 1024 * 1024;
  if (bytes < mb) return `${formatCount(Math.max(1, Math.round(bytes / 1024)), locale)} kB`;
  if (bytes < 1024 * mb) return `${fixedNumber(bytes / mb, 1, locale)} MB`;
  return `${fixedNumber(bytes / mb / 1024, 2, locale)} GB`;
}
