// @vitest-environment jsdom
import { ldSearchSchema } from '@tessera/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_LD_SEARCH, TYPING_PAUSE_MS, isNarrowed, toLdSearch, useLdSearch } from './ld-search';

describe('the search the fields stand for', () => {
  const zone = process.env.TZ;
  beforeEach(() => {
    // Node reads TZ afresh when it changes: the days are Madrid's here, an hour ahead in winter.
    process.env.TZ = 'Europe/Madrid';
  });
  afterEach(() => {
    process.env.TZ = zone;
  });

  it('sends only what is filled in, and always the order', () => {
    expect(toLdSearch(EMPTY_LD_SEARCH)).toEqual({ sort: 'newest' });
    expect(toLdSearch({ ...EMPTY_LD_SEARCH, text: '  stone  ', seed: '42', sort: 'name' })).toEqual(
      { text: 'stone', seed: '42', sort: 'name' },
    );
    expect(toLdSearch({ ...EMPTY_LD_SEARCH, starred: true })).toEqual({
      starred: true,
      sort: 'newest',
    });
  });

  it('turns From and To into the first moments of local days, To included', () => {
    const search = toLdSearch({ ...EMPTY_LD_SEARCH, from: '2025-01-02', to: '2025-01-02' });
    expect(search).toEqual({
      from: '2025-01-01T23:00:00.000Z',
      to: '2025-01-02T23:00:00.000Z',
      sort: 'newest',
    });
    // Across the change to summer time, and at the end of a year.
    expect(toLdSearch({ ...EMPTY_LD_SEARCH, from: '2025-03-31', to: '2025-12-31' })).toMatchObject({
      from: '2025-03-30T22:00:00.000Z',
      to: '2025-12-31T23:00:00.000Z',
    });
    // Years below 100 are those years, not 19xx (Madrid then kept its own solar time).
    expect(toLdSearch({ ...EMPTY_LD_SEARCH, from: '0050-06-01' }).from).toMatch(/^0050-0[56]-/);
    // Whatever the fields hold, the contract takes what they give.
    expect(ldSearchSchema.safeParse(search).success).toBe(true);
  });

  it('leaves out a half-typed date or a seed that is no number', () => {
    expect(toLdSearch({ ...EMPTY_LD_SEARCH, from: '2025-01', seed: '' })).toEqual({
      sort: 'newest',
    });
  });

  it('counts the order alone as no narrowing', () => {
    expect(isNarrowed({ ...EMPTY_LD_SEARCH, sort: 'oldest' })).toBe(false);
    expect(isNarrowed({ ...EMPTY_LD_SEARCH, text: ' ' })).toBe(false);
    expect(isNarrowed({ ...EMPTY_LD_SEARCH, starred: true })).toBe(true);
  });
});

describe('useLdSearch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('searches typed text once typing pauses, and choices at once', () => {
    const { result } = renderHook(() => useLdSearch());
    act(() => result.current.change({ text: 'sto' }));
    act(() => vi.advanceTimersByTime(TYPING_PAUSE_MS - 50));
    act(() => result.current.change({ text: 'stone' }));
    act(() => vi.advanceTimersByTime(TYPING_PAUSE_MS - 50));
    // Still typing: the fields show it, the search waits.
    expect(result.current.form.text).toBe('stone');
    expect(result.current.search).toEqual({ sort: 'newest' });
    // A choice applies at once, and the text still waits for its pause.
    act(() => result.current.change({ sort: 'name', starred: true }));
    expect(result.current.search).toEqual({ starred: true, sort: 'name' });
    expect(result.current.starredOnly).toBe(true);
    act(() => vi.advanceTimersByTime(50));
    expect(result.current.search).toEqual({ text: 'stone', starred: true, sort: 'name' });

    // Clear takes the filters off and keeps the order.
    act(() => result.current.clear());
    expect(result.current.form).toEqual({ ...EMPTY_LD_SEARCH, sort: 'name' });
    expect(result.current.search).toEqual({ sort: 'name' });
  });
});
