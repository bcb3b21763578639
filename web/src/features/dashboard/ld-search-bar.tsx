import { LD_SORTS, SEARCH_TEXT_MAX_LENGTH, TEXT_BUNDLES } from '@tessera/contract';
import type { LdSort } from '@tessera/contract';
import { useId } from 'react';
import { StarIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
import { isNarrowed } from './ld-search';
import type { LdSearchState } from './ld-search';

/** Seeds are digits; 20 hold any engine seed. */
const SEED_MAX_LENGTH = 20;

function isSort(value: string): value is LdSort {
  return (LD_SORTS as readonly string[]).includes(value);
}

/**
 * The Dashboard's search (issue 13, features 8 and 9): prompt text, seed, a range of days, the
 * order and the Starred filter. The server finds and orders; this only holds the fields.
 */
export function LdSearchBar({ form, change, clear }: LdSearchState) {
  // Labels point at their fields rather than wrap them: a wrapping label would lend the select
  // its options' text as part of its name.
  const texts = useTexts(TEXT_BUNDLES.dashboard);
  const id = useId();
  return (
    <div className="gallery-search" role="search" aria-label={texts.find}>
      <input
        type="search"
        className="field-input gallery-search-text"
        aria-label={texts.searchPrompts}
        placeholder={texts.searchPrompts}
        maxLength={SEARCH_TEXT_MAX_LENGTH}
        value={form.text}
        onChange={(event) => change({ text: event.target.value })}
      />
      <input
        type="text"
        className="field-input gallery-search-seed"
        aria-label={texts.seed}
        placeholder={texts.seed}
        inputMode="numeric"
        maxLength={SEED_MAX_LENGTH}
        value={form.seed}
        // Only digits make a seed: anything else typed is left out as it is typed.
        onChange={(event) => change({ seed: event.target.value.replace(/\D/g, '') })}
      />
      <span className="gallery-search-field">
        <label className="gallery-search-label" htmlFor={`${id}-from`}>
          {texts.from}
        </label>
        <input
          id={`${id}-from`}
          type="date"
          className="field-input"
          value={form.from}
          max={form.to || undefined}
          onChange={(event) => change({ from: event.target.value })}
        />
      </span>
      <span className="gallery-search-field">
        <label className="gallery-search-label" htmlFor={`${id}-to`}>
          {texts.to}
        </label>
        <input
          id={`${id}-to`}
          type="date"
          className="field-input"
          value={form.to}
          min={form.from || undefined}
          onChange={(event) => change({ to: event.target.value })}
        />
      </span>
      <span className="gallery-search-field">
        <label className="gallery-search-label" htmlFor={`${id}-sort`}>
          {texts.sort}
        </label>
        <select
          id={`${id}-sort`}
          className="field-input"
          value={form.sort}
          onChange={(event) => {
            if (isSort(event.target.value)) change({ sort: event.target.value });
          }}
        >
          {LD_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {texts.sorts[sort]}
            </option>
          ))}
        </select>
      </span>
      <button
        type="button"
        className="button button-small gallery-search-starred"
        aria-pressed={form.starred}
        onClick={() => change({ starred: !form.starred })}
      >
        <StarIcon filled={form.starred} />
        {texts.starred}
      </button>
      {isNarrowed(form) && (
        <button type="button" className="button button-small" onClick={clear}>
          {texts.clearSearch}
        </button>
      )}
    </div>
  );
}
