import { describe, expect, it } from 'vitest';
import { formatImageDate, parseDateValue, readImageDate } from './dates.js';

describe('image dates', () => {
  it('[Z2] reads an ISO string', () => {
    expect(readImageDate({ created_at: '2024-01-02T03:04:05Z' })?.toISOString()).toBe(
      '2024-01-02T03:04:05.000Z',
    );
  });

  it('[Z2] reads an epoch below 9e11 as seconds and from 9e11 as milliseconds', () => {
    expect(parseDateValue(1_700_000_000)?.getTime()).toBe(1_700_000_000_000);
    expect(parseDateValue(9e11 - 1)?.getTime()).toBe((9e11 - 1) * 1000);
    expect(parseDateValue(9e11)?.getTime()).toBe(9e11);
    expect(parseDateValue(1_700_000_000_000)?.getTime()).toBe(1_700_000_000_000);
  });

  it('[Z2] reads an epoch given as a numeric string', () => {
    expect(parseDateValue('1700000000')?.getTime()).toBe(1_700_000_000_000);
    expect(parseDateValue(' 1700000000000 ')?.getTime()).toBe(1_700_000_000_000);
  });

  it('[Z2] prefers created_at and falls back to creation_date', () => {
    const created = '2024-01-02T00:00:00Z';
    const creation = '2023-05-06T00:00:00Z';
    expect(readImageDate({ created_at: created, creation_date: creation })?.toISOString()).toBe(
      '2024-01-02T00:00:00.000Z',
    );
    expect(readImageDate({ creation_date: creation })?.toISOString()).toBe(
      '2023-05-06T00:00:00.000Z',
    );
    expect(readImageDate({ created_at: 'garbage', creation_date: creation })?.toISOString()).toBe(
      '2023-05-06T00:00:00.000Z',
    );
  });

  it('[Z2] has no date when missing or unreadable', () => {
    expect(readImageDate({})).toBeUndefined();
    expect(parseDateValue('not a date')).toBeUndefined();
    expect(parseDateValue('')).toBeUndefined();
    expect(parseDateValue(null)).toBeUndefined();
    expect(parseDateValue(true)).toBeUndefined();
    expect(parseDateValue(Number.NaN)).toBeUndefined();
    expect(parseDateValue(1e20)).toBeUndefined();
  });

  it('[Z2] formats the date in es-ES, or a dash when missing', () => {
    expect(formatImageDate({ created_at: '2024-01-02T03:04:05Z' }, 'UTC')).toBe(
      '2/1/2024, 3:04:05',
    );
    expect(formatImageDate({ creation_date: 1_700_000_000 }, 'Europe/Madrid')).toBe(
      '14/11/2023, 23:13:20',
    );
    expect(formatImageDate({}, 'UTC')).toBe('-');
    expect(formatImageDate({ created_at: 'garbage' })).toBe('-');
  });
});
