import { describe, expect, it } from 'vitest';
import { formatImageDate } from './dates.js';
import { localeFromBrowser, textsIn } from './i18n.js';
import { SERVER_ERROR_TEXT_PAIR } from './errors-es.js';
import { localizeServerText, TEXT_BUNDLES, textLeaves } from './text-bundles.js';
import { TEXTS } from './texts.js';

/** Arguments no text writes by itself, so each one found in a result was put there. */
function markers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `⟦${i}⟧`);
}

/** Which of its arguments a text function writes out, called with markers. */
function placeholdersOf(text: (...args: string[]) => string): string[] {
  const args = markers(text.length);
  const written = text(...args);
  return args.filter((arg) => written.includes(arg));
}

// The server's refusals are checked as the interface's texts are (errors-es.test.ts has more).
const PAIRS = [...Object.entries(TEXT_BUNDLES), ['serverErrors', SERVER_ERROR_TEXT_PAIR] as const];

describe.each(PAIRS)('the %s texts in both languages', (_, pair) => {
  const spanish = textLeaves(pair.es);
  const english = new Map(textLeaves(pair.en));

  it('have the same keys at every depth', () => {
    expect([...english.keys()].sort()).toEqual(spanish.map(([path]) => path).sort());
  });

  it('have no empty text in either language', () => {
    for (const [path, text] of [...spanish, ...english]) {
      if (typeof text === 'string') expect(text.trim(), path).not.toBe('');
    }
  });

  it('are strings in both, or functions of the same arguments writing the same values', () => {
    for (const [path, text] of spanish) {
      const twin = english.get(path);
      expect(typeof twin, path).toBe(typeof text);
      if (typeof text !== 'function' || typeof twin !== 'function') continue;
      expect(twin.length, path).toBe(text.length);
      const es = placeholdersOf(text as (...args: string[]) => string);
      expect(placeholdersOf(twin as (...args: string[]) => string), path).toEqual(es);
    }
  });
});

describe('choosing the language', () => {
  it('takes the first language of the browser that Tessera speaks, else Spanish', () => {
    expect(localeFromBrowser(['en-GB', 'es-ES'])).toBe('en');
    expect(localeFromBrowser(['EN'])).toBe('en');
    expect(localeFromBrowser(['fr-FR', 'en-US'])).toBe('en');
    expect(localeFromBrowser(['es-MX', 'en'])).toBe('es');
    expect(localeFromBrowser(['fr-FR', 'de'])).toBe('es');
    expect(localeFromBrowser([])).toBe('es');
  });

  it('keeps the spec texts verbatim in the default language', () => {
    expect(textsIn(TEXT_BUNDLES.texts, 'es')).toBe(TEXTS);
    expect(textsIn(TEXT_BUNDLES.texts, 'es').noImagesFound).toBe('No se han encontrado imágenes.');
    expect(textsIn(TEXT_BUNDLES.texts, 'en').noImagesFound).toBe('No images found.');
  });
});

describe('texts the server wrote', () => {
  it('are swapped for their English twin when the contract has one', () => {
    expect(localizeServerText(TEXTS.uploadTooLarge, 'en')).toBe(
      'The file is larger than the largest size allowed (25 MB).',
    );
    expect(localizeServerText(TEXTS.uploadTooLarge, 'es')).toBe(TEXTS.uploadTooLarge);
    expect(localizeServerText(TEXTS.numberOutOfRange(0, 20), 'en')).toBe(
      'Must be a number from 0 to 20',
    );
  });

  it("are the server's own refusals in Spanish, in the Spanish interface", () => {
    expect(localizeServerText('Invalid username or password', 'es')).toBe(
      'Usuario o contraseña incorrectos',
    );
    expect(localizeServerText('Invalid username or password', 'en')).toBe(
      'Invalid username or password',
    );
  });

  it('are shown as sent otherwise', () => {
    expect(localizeServerText('Something only the log explains', 'es')).toBe(
      'Something only the log explains',
    );
    expect(localizeServerText('Algo que solo explica el registro', 'en')).toBe(
      'Algo que solo explica el registro',
    );
  });
});

describe('image dates', () => {
  const metadata = { created_at: '2024-03-04T15:06:07Z' };

  it('are es-ES by default and en-GB in English: day first, 24-hour clock', () => {
    expect(formatImageDate(metadata, 'UTC')).toBe('4/3/2024, 15:06:07');
    expect(formatImageDate(metadata, 'UTC', 'en')).toBe('04/03/2024, 15:06:07');
  });
});
