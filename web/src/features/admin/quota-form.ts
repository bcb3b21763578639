import { bytesToGb, gbToBytes, shownErrorText } from '@tessera/contract';
import type { QuotaDefaults, UserQuotas } from '@tessera/contract';
import { currentLocale } from '../../lib/i18n';

/** The quota dialog's fields as typed: storage in decimal GB, the queues as whole numbers. */
export interface QuotaFields {
  storageGb: string;
  queuedPreviews: string;
  queuedHd: string;
}

/** A number or nothing: the fields of stored quotas, null shown empty. */
export function quotaFields(quotas: UserQuotas | QuotaDefaults): QuotaFields {
  return {
    storageGb: quotas.storageBytes === null ? '' : bytesToGb(quotas.storageBytes),
    queuedPreviews: quotas.queuedPreviews === null ? '' : String(quotas.queuedPreviews),
    queuedHd: quotas.queuedHd === null ? '' : String(quotas.queuedHd),
  };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The server's refusal of such a value, checked here first: in the language shown. */
function invalid(): { ok: false; error: string } {
  return { ok: false, error: shownErrorText(currentLocale(), 'QUOTA_INVALID') };
}

/** Empty: null; otherwise a whole number, or undefined when it is not one. */
function count(typed: string): number | null | undefined {
  const text = typed.trim();
  if (text === '') return null;
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

function storage(typed: string): number | null | undefined {
  return typed.trim() === '' ? null : gbToBytes(typed);
}

/** A user's quotas from the fields: each empty one follows the default. The server checks ranges. */
export function parseUserQuotas(fields: QuotaFields): Parsed<UserQuotas> {
  const value = {
    storageBytes: storage(fields.storageGb),
    queuedPreviews: count(fields.queuedPreviews),
    queuedHd: count(fields.queuedHd),
  };
  if (Object.values(value).includes(undefined)) return invalid();
  return { ok: true, value: value as UserQuotas };
}

/** The defaults from the fields: storage empty is no limit; the queues must be given. */
export function parseQuotaDefaults(fields: QuotaFields): Parsed<QuotaDefaults> {
  const parsed = parseUserQuotas(fields);
  if (!parsed.ok) return parsed;
  const { storageBytes, queuedPreviews, queuedHd } = parsed.value;
  if (queuedPreviews === null || queuedHd === null) return invalid();
  return { ok: true, value: { storageBytes, queuedPreviews, queuedHd } };
}
