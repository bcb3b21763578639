import { describe, expect, it } from 'vitest';
import { auditSearch } from '../../lib/api/admin';
import {
  auditQueryOf,
  dayEnd,
  dayStart,
  formatAuditDetails,
  NO_AUDIT_FILTERS,
} from './audit-filters';

describe('the audit filters', () => {
  it('ask for everything when none is set', () => {
    expect(auditQueryOf(NO_AUDIT_FILTERS)).toEqual({});
    expect(auditSearch(auditQueryOf(NO_AUDIT_FILTERS))).toBe('');
  });

  it('send only the filters set, names trimmed, and the page', () => {
    const query = auditQueryOf(
      { ...NO_AUDIT_FILTERS, action: 'role-changed', actor: ' admin ', target: '' },
      42,
    );
    expect(query).toEqual({ action: 'role-changed', actor: 'admin', before: 42 });
    expect(auditSearch(query)).toBe('?action=role-changed&actor=admin&before=42');
  });

  it('cover whole days of the browser: from its first to its last millisecond', () => {
    const start = new Date(dayStart('2026-11-27'));
    expect([start.getFullYear(), start.getMonth(), start.getDate()]).toEqual([2026, 10, 27]);
    expect([start.getHours(), start.getMinutes(), start.getMilliseconds()]).toEqual([0, 0, 0]);
    const end = new Date(dayEnd('2026-11-27'));
    expect(end.getDate()).toBe(27);
    expect(end.getTime() + 1).toBe(new Date(2026, 10, 28).getTime());
    const query = auditQueryOf({ ...NO_AUDIT_FILTERS, from: '2026-11-27', to: '2026-11-27' });
    expect(query).toEqual({ from: start.toISOString(), to: end.toISOString() });
  });

  it('show the details as key: value pairs, other than text as JSON', () => {
    expect(formatAuditDetails({})).toBe('');
    expect(formatAuditDetails({ from: 'member', to: 'admin' })).toBe('from: member, to: admin');
    expect(formatAuditDetails({ images: 'delete', ldImages: 3 })).toBe(
      'images: delete, ldImages: 3',
    );
  });
});
