import { TAG_SEARCH_MAX_LENGTH, TEXT_BUNDLES, capTagSearch } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';

/** A tag search box, capped at 15 characters (checklist T2). */
export function TagSearch({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  /** What the box searches; "Search tags" unless told. */
  label?: string;
}) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const name = label ?? texts.search;
  return (
    <input
      type="search"
      className="field-input tag-search"
      aria-label={name}
      placeholder={name}
      autoComplete="off"
      spellCheck={false}
      maxLength={TAG_SEARCH_MAX_LENGTH}
      value={value}
      // maxLength counts UTF-16 units; the contract's cap counts characters as a person does.
      onChange={(event) => onChange(capTagSearch(event.target.value))}
    />
  );
}
