import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TAG_COLOR,
  TAG_NAME_MAX_LENGTH,
  TAG_SEARCH_MAX_LENGTH,
  capTagSearch,
  matchesTagSearch,
  randomTagColor,
  tagSearchKey,
  validateTagName,
} from './tags.js';

const INVALID = 'Use only standard characters (no emojis or special symbols)';
const TOO_LONG = 'El nombre de la etiqueta admite como máximo 15 caracteres';

describe('tag name validation', () => {
  it('[T9] requires a name', () => {
    expect(validateTagName('', [])).toBe('El nombre de la etiqueta es obligatorio');
    expect(validateTagName('   ', [])).toBe('El nombre de la etiqueta es obligatorio');
  });

  it('[T9] allows 15 characters and refuses 16', () => {
    expect(TAG_NAME_MAX_LENGTH).toBe(15);
    expect(validateTagName('a'.repeat(15), [])).toBeUndefined();
    expect(validateTagName('a'.repeat(16), [])).toBe(TOO_LONG);
  });

  it('[T9] counts accented letters as one character, however they are typed', () => {
    expect(validateTagName('ñ'.repeat(15), [])).toBeUndefined();
    expect(validateTagName('ñ'.repeat(16), [])).toBe(TOO_LONG);
    // e + combining acute accent: 30 UTF-16 units, 15 letters once composed.
    expect(validateTagName('e\u0301'.repeat(15), [])).toBeUndefined();
  });

  it('[T9] accepts letters, digits, Latin accented letters, space and . , ! ? \' " -', () => {
    expect(validateTagName('Árbol ñ.,!?\'"-', [])).toBeUndefined();
    expect(validateTagName('Łódź 2024', [])).toBeUndefined();
    expect(validateTagName('ÀÖØöøÿĀſ', [])).toBeUndefined();
  });

  it('[T9] rejects emoji in a tag name', () => {
    expect(validateTagName('hot🔥', [])).toBe(INVALID);
    expect(validateTagName('👍', [])).toBe(INVALID);
  });

  it('[T9] rejects special symbols, × and ÷, other scripts and control characters', () => {
    for (const name of [
      'a#b',
      'a_b',
      'a/b',
      'a@b',
      '2×3',
      '6÷2',
      'αβγ',
      'tab\tx',
      'a€',
      'x\u0300',
    ]) {
      expect(validateTagName(name, []), name).toBe(INVALID);
    }
  });

  it('[T10] refuses an exact duplicate with "A tag with the name \'<tag name>\' already exists"', () => {
    expect(validateTagName('Red', ['Red', 'Blue'])).toBe(
      "A tag with the name 'Red' already exists",
    );
    expect(validateTagName('red', ['Red', 'Blue'])).toBeUndefined();
    expect(validateTagName('Red ', ['Red'])).toBeUndefined();
  });

  it("[T10] on edit excludes the tag's own current name", () => {
    expect(validateTagName('Red', ['Red', 'Blue'], 'Red')).toBeUndefined();
    expect(validateTagName('Blue', ['Red', 'Blue'], 'Red')).toBe(
      "A tag with the name 'Blue' already exists",
    );
  });

  it('[T10] sees a decomposed accent as the same name', () => {
    expect(validateTagName('Cafe\u0301', ['Caf\u00e9'])).toBe(
      "A tag with the name 'Caf\u00e9' already exists",
    );
  });
});

describe('tag search', () => {
  it('[T2] ignores accents and case', () => {
    expect(tagSearchKey('Árbol Ñandú')).toBe('arbol nandu');
    expect(matchesTagSearch('Árbol', 'ARB')).toBe(true);
    expect(matchesTagSearch('arbol', 'Ár')).toBe(true);
  });

  it('[T2] matches from the start of the name only', () => {
    expect(matchesTagSearch('Stone wall', 'sto')).toBe(true);
    expect(matchesTagSearch('Stone wall', 'wall')).toBe(false);
  });

  it('[T2] matches every tag with an empty query', () => {
    expect(matchesTagSearch('Stone', '')).toBe(true);
    expect(matchesTagSearch('Stone', '   ')).toBe(true);
  });

  it('[T2] caps the query at 15 characters', () => {
    expect(TAG_SEARCH_MAX_LENGTH).toBe(15);
    expect(capTagSearch('abcdefghijklmnop')).toBe('abcdefghijklmno');
    expect(capTagSearch('ñ'.repeat(16))).toBe('ñ'.repeat(15));
    // The 16th character is cut off, so it cannot spoil the match.
    expect(matchesTagSearch('abcdefghijklmno', 'abcdefghijklmnoX')).toBe(true);
    expect(matchesTagSearch('abcdefghijklmno', 'abcdefghijklmnX')).toBe(false);
  });
});

describe('tag colours', () => {
  it('[T12] a tag created inline gets a random hex colour', () => {
    expect(randomTagColor(() => 0)).toBe('#000000');
    expect(randomTagColor(() => 0.5)).toBe('#800000');
    expect(randomTagColor(() => 0.9999999999)).toBe('#ffffff');
    expect(randomTagColor(() => 1)).toBe('#ffffff');
    expect(randomTagColor()).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('[T12] the create dialog starts at #000000', () => {
    expect(DEFAULT_TAG_COLOR).toBe('#000000');
  });
});
