// Tag rules of SPEC §5 and §9: name validation, search and colours.
import { textSearchKey } from './search.js';
import { TEXTS } from './texts.js';

export const TAG_NAME_MAX_LENGTH = 15;
export const TAG_SEARCH_MAX_LENGTH = 15;
export const DEFAULT_TAG_COLOR = '#000000';

// ASCII letters and digits; Latin-1 letters (U+00C0–U+00FF without × U+00D7 and ÷ U+00F7);
// Latin Extended-A (U+0100–U+017F); space and . , ! ? ' " -
const TAG_NAME_PATTERN = /^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u017F .,!?'"-]*$/u;

/** Length as a person counts it: code points, not UTF-16 units. */
function codePointLength(text: string): number {
  return [...text].length;
}

/**
 * The error text for a tag name, or undefined when it is valid. `existingNames` are the user's
 * tag names; when editing, `currentName` is the tag's own name, which the new name may keep.
 */
export function validateTagName(
  name: string,
  existingNames: readonly string[],
  currentName?: string,
): string | undefined {
  // NFC so that 'é' typed as e + combining accent counts and matches as one letter.
  const normalized = name.normalize('NFC');
  if (normalized.trim() === '') return TEXTS.tagNameRequired;
  if (codePointLength(normalized) > TAG_NAME_MAX_LENGTH) {
    return TEXTS.tagNameTooLong(TAG_NAME_MAX_LENGTH);
  }
  if (!TAG_NAME_PATTERN.test(normalized)) return TEXTS.tagInvalidCharacters;
  const own = currentName?.normalize('NFC');
  const taken = existingNames.some((existing) => {
    const other = existing.normalize('NFC');
    return other !== own && other === normalized;
  });
  return taken ? TEXTS.tagDuplicate(normalized) : undefined;
}

/** Search key of a tag name: accents stripped, lower-case, so 'Árbol' and 'arbol' meet. */
export const tagSearchKey = textSearchKey;

/** A search box value cut to the longest query the box accepts. */
export function capTagSearch(query: string): string {
  return [...query].slice(0, TAG_SEARCH_MAX_LENGTH).join('');
}

/** Whether a tag name starts with the query, ignoring accents and case; empty matches all. */
export function matchesTagSearch(tagName: string, query: string): boolean {
  const key = tagSearchKey(capTagSearch(query));
  if (key.trim() === '') return true;
  return tagSearchKey(tagName).startsWith(key);
}

/** A random colour '#rrggbb' for a tag created inline. */
export function randomTagColor(random: () => number = Math.random): string {
  // Clamped so a source returning exactly 1 (or a stray negative) still gives six digits.
  const value = Math.min(Math.max(Math.floor(random() * 0x1000000), 0), 0xffffff);
  return `#${value.toString(16).padStart(6, '0')}`;
}
