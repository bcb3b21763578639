import { DEFAULT_LD_SORT, SEARCH_SEED_PATTERN } from '@tessera/contract';
import type { LdSearchInput, LdSort } from '@tessera/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';

/** What the Dashboard's search fields hold; dates as the date inputs give them (YYYY-MM-DD). */
export interface LdSearchForm {
  text: string;
  seed: string;
  from: string;
  to: string;
  sort: LdSort;
  starred: boolean;
}

export const EMPTY_LD_SEARCH: LdSearchForm = {
  text: '',
  seed: '',
  from: '',
  to: '',
  sort: DEFAULT_LD_SORT,
  starred: false,
};

/** Typing in the text or seed field searches once the person pauses, not at every key. */
export const TYPING_PAUSE_MS = 300;

/** The start of a local day (YYYY-MM-DD), `addDays` later, as an instant; undefined if no day. */
function startOfLocalDay(day: string, addDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const date = new Date(0);
  // setFullYear, not the constructor: that reads years below 100 as 19xx.
  date.setFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays);
  date.setHours(0, 0, 0, 0);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The search the fields stand for. The dates are whole days where the person is: From at its
 * first moment, To up to the next day's (the server's `to` is exclusive), so To's day is in.
 */
export function toLdSearch(form: LdSearchForm): LdSearchInput {
  const text = form.text.trim();
  const from = startOfLocalDay(form.from);
  const to = startOfLocalDay(form.to, 1);
  return {
    ...(text !== '' && { text }),
    ...(SEARCH_SEED_PATTERN.test(form.seed) && { seed: form.seed }),
    ...(from !== undefined && { from }),
    ...(to !== undefined && { to }),
    ...(form.starred && { starred: true }),
    sort: form.sort,
  };
}

/** Whether the fields keep some images out (the order alone keeps them all). */
export function isNarrowed(form: LdSearchForm): boolean {
  return (
    form.text.trim() !== '' ||
    form.seed !== '' ||
    form.from !== '' ||
    form.to !== '' ||
    form.starred
  );
}

export interface LdSearchState {
  /** What the fields show. */
  form: LdSearchForm;
  /** What the list is searched by: the fields, text and seed once typing pauses. */
  search: LdSearchInput;
  /** Whether the list in view keeps only starred images. */
  starredOnly: boolean;
  change: (patch: Partial<LdSearchForm>) => void;
  clear: () => void;
}

/** The Dashboard's search (issue 13, feature 8): client state, sent with every list request. */
export function useLdSearch(): LdSearchState {
  const [form, setForm] = useState(EMPTY_LD_SEARCH);
  const [applied, setApplied] = useState(EMPTY_LD_SEARCH);
  const { text, seed } = form;
  const typing = text !== applied.text || seed !== applied.seed;

  // Each key starts the pause anew; a choice made meanwhile does not.
  useEffect(() => {
    if (!typing) return;
    const timer = setTimeout(() => setApplied((a) => ({ ...a, text, seed })), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, seed, typing]);

  const change = useCallback((patch: Partial<LdSearchForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    // Choices (order, dates, Starred) apply at once; typed text waits for the pause above.
    const chosen = { ...patch };
    delete chosen.text;
    delete chosen.seed;
    if (Object.keys(chosen).length > 0) setApplied((a) => ({ ...a, ...chosen }));
  }, []);
  // Takes every filter off; the order stays as chosen.
  const clear = useCallback(() => {
    setForm((f) => ({ ...EMPTY_LD_SEARCH, sort: f.sort }));
    setApplied((a) => ({ ...EMPTY_LD_SEARCH, sort: a.sort }));
  }, []);
  const search = useMemo(() => toLdSearch(applied), [applied]);
  return { form, search, starredOnly: applied.starred, change, clear };
}
