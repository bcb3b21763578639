// Per-user quotas (issue 29, part 3): storage, queued previews and queued HD orders. Bytes on the
// wire and in the database; the admin screen shows and takes decimal GB (1 GB = 10^9 bytes).
import { z } from 'zod';
import { DEFAULT_LOCALE, INTL_LOCALES, type Locale, type Translation } from './i18n.js';

/** Decimal gigabytes, as the admin screen shows and takes storage quotas. */
export const BYTES_PER_GB = 1_000_000_000;
/** The largest storage quota: 1 PB, well inside a JavaScript number's exact integers. */
export const STORAGE_QUOTA_MAX_BYTES = 1_000_000 * BYTES_PER_GB;
/** The largest queue quota, as MAX_QUEUED_*_PER_USER allows. */
export const QUEUE_QUOTA_MAX = 10_000;
/** The share of the storage quota from which the sidebar warns. */
export const STORAGE_WARNING_SHARE = 0.9;

const storageBytes = z.number().int().min(0).max(STORAGE_QUOTA_MAX_BYTES);
const queueLimit = z.number().int().min(1).max(QUEUE_QUOTA_MAX);

/** The studio's defaults: `storageBytes` null is no storage limit. */
export const quotaDefaultsSchema = z.object({
  storageBytes: storageBytes.nullable(),
  queuedPreviews: queueLimit,
  queuedHd: queueLimit,
});
export type QuotaDefaults = z.infer<typeof quotaDefaultsSchema>;

/** One user's own quotas: each null follows the default. */
export const userQuotasSchema = z.object({
  storageBytes: storageBytes.nullable(),
  queuedPreviews: queueLimit.nullable(),
  queuedHd: queueLimit.nullable(),
});
export type UserQuotas = z.infer<typeof userQuotasSchema>;

/** GET/PUT the defaults: the body and the answer. */
export const quotaDefaultsResponseSchema = z.object({ defaults: quotaDefaultsSchema });
export type QuotaDefaultsResponse = z.infer<typeof quotaDefaultsResponseSchema>;

/** A member's own storage: used bytes and the quota that applies (null: no limit). */
export const storageUsageSchema = z.object({
  usedBytes: z.number().int().nonnegative(),
  quotaBytes: z.number().int().nonnegative().nullable(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

/**
 * The storage rule, one home for the server and its tests: a request that brings `incomingBytes`
 * is refused when use would pass the quota. An order whose size is not known before it runs (a
 * preview's result, an HD image) brings at least one byte: it is refused once use reaches the
 * quota. Exactly at the quota is allowed; one byte over is not.
 */
export function overStorageQuota(
  usedBytes: number,
  incomingBytes: number,
  quotaBytes: number | null,
): boolean {
  return quotaBytes !== null && usedBytes + Math.max(1, incomingBytes) > quotaBytes;
}

/** Whether the sidebar warns: use at 90 % of the quota or more. */
export function storageWarning(usage: StorageUsage): boolean {
  return usage.quotaBytes !== null && usage.usedBytes >= usage.quotaBytes * STORAGE_WARNING_SHARE;
}

/** Decimal GB typed on the admin screen ('0,5' or '0.5') as bytes; undefined: not a size. */
export function gbToBytes(typed: string): number | undefined {
  const text = typed.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const bytes = Math.round(Number(text) * BYTES_PER_GB);
  return bytes <= STORAGE_QUOTA_MAX_BYTES ? bytes : undefined;
}

const GB_FIELD = new Intl.NumberFormat('es-ES', {
  maximumFractionDigits: 9,
  useGrouping: false,
});

/** Bytes as decimal GB for a quota field, es-ES and exact: 5, 0,5, 0,000001. */
export function bytesToGb(bytes: number): string {
  return GB_FIELD.format(bytes / BYTES_PER_GB);
}

const AMOUNTS = {
  es: new Intl.NumberFormat(INTL_LOCALES.es, { maximumFractionDigits: 1 }),
  en: new Intl.NumberFormat(INTL_LOCALES.en, { maximumFractionDigits: 1 }),
} satisfies Record<Locale, Intl.NumberFormat>;
const DECIMAL_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in decimal units (1000 steps, as quotas are set), es-ES: 850 KB, 1,2 GB, 5 GB. */
export function formatQuotaBytes(bytes: number, locale: Locale = DEFAULT_LOCALE): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < DECIMAL_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${AMOUNTS[locale].format(value)} ${DECIMAL_UNITS[unit]}`;
}

/** The sidebar's storage meter (Spanish, as the app's own texts). */
export const STORAGE_TEXTS = {
  label: 'Almacenamiento',
  usedOfQuota: (used: number, quota: number) =>
    `${formatQuotaBytes(used)} de ${formatQuotaBytes(quota)}`,
  usedOnly: (used: number) => `${formatQuotaBytes(used)} usados`,
  warning: 'Almacenamiento casi lleno',
} as const;

export const STORAGE_TEXTS_EN: Translation<typeof STORAGE_TEXTS> = {
  label: 'Storage',
  usedOfQuota: (used: number, quota: number) =>
    `${formatQuotaBytes(used, 'en')} of ${formatQuotaBytes(quota, 'en')}`,
  usedOnly: (used: number) => `${formatQuotaBytes(used, 'en')} used`,
  warning: 'Storage almost full',
};
