import { TAG_SEARCH_MAX_LENGTH, capTagSearch } from '@tessera/contract';

/** A tag search box, capped at 15 characters (checklist T2). */
export function TagSearch({
  value,
  onChange,
  label = 'Search tags',
}: {
  value: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <input
      type="search"
      className="field-input tag-search"
      aria-label={label}
      placeholder={label}
      autoComplete="off"
      spellCheck={false}
      maxLength={TAG_SEARCH_MAX_LENGTH}
      value={value}
      // maxLength counts UTF-16 units; the contract's cap counts characters as a person does.
      onChange={(event) => onChange(capTagSearch(event.target.value))}
    />
  );
}
