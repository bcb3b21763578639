import type { AuditAction, AuditEntry, AuditQuery } from '@tessera/contract';

/** The audit screen's filters as its form holds them; '' is "any". Days are YYYY-MM-DD. */
export interface AuditFilters {
  action: AuditAction | '';
  actor: string;
  target: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = {
  action: '',
  actor: '',
  target: '',
  from: '',
  to: '',
};

/** Midnight at the start of a day of the browser's time zone, as an ISO instant. */
export function dayStart(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year ?? 0, (month ?? 1) - 1, date ?? 1).toISOString();
}

/** The last millisecond of a day of the browser's time zone: `to` is inclusive on the server. */
export function dayEnd(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(
    new Date(year ?? 0, (month ?? 1) - 1, (date ?? 1) + 1).getTime() - 1,
  ).toISOString();
}

/** The API query of the filters (only those set) and the page (`before`, for older entries). */
export function auditQueryOf(filters: AuditFilters, before?: number): AuditQuery {
  const actor = filters.actor.trim();
  const target = filters.target.trim();
  return {
    ...(filters.action !== '' && { action: filters.action }),
    ...(actor !== '' && { actor }),
    ...(target !== '' && { target }),
    ...(filters.from !== '' && { from: dayStart(filters.from) }),
    ...(filters.to !== '' && { to: dayEnd(filters.to) }),
    ...(before !== undefined && { before }),
  };
}

/** An entry's details as one line: `key: value` pairs, values other than text as JSON. */
export function formatAuditDetails(details: AuditEntry['details']): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}
