// Metadata and multipart fields carry numbers either as numbers or as numeric strings.

/** A decimal number as text: optional sign, digits with an optional fraction, optional exponent. */
export const NUMERIC_STRING_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Non-negative whole number as text, as seeds are written. */
export const DIGITS_PATTERN = /^\d+$/;

/** A finite number from a number or a numeric string; anything else is undefined. */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!NUMERIC_STRING_PATTERN.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The value in hundredths, so two-decimal comparisons are exact integers and dodge float noise. */
export function toHundredths(value: number): number {
  return Math.round(value * 100);
}
