import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_TEXTS_ES } from './errors-es.js';
import { errorText, SERVER_ERROR_TEXTS, type ServerErrorCode } from './errors.js';
import { localizeServerText, shownErrorText } from './text-bundles.js';
import { TEXTS } from './texts.js';

type TextFunction = (...args: unknown[]) => string;

const codes = Object.keys(SERVER_ERROR_TEXTS) as ServerErrorCode[];
/** Values such as the server writes: a name with digits first, a count, a size. */
const SAMPLES: unknown[] = ['007-piedra', 30, '60x120'];

/** A refusal's text in a language, with the sample values when it names any. */
function written(text: unknown): string {
  return typeof text === 'function' ? (text as TextFunction)(...SAMPLES) : String(text);
}

describe("the server's refusals in Spanish", () => {
  it('has a Spanish text for every code, and no text under two codes', () => {
    const texts = codes.map((code) => written(SERVER_ERROR_TEXTS_ES[code]));
    for (const text of texts) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toContain('undefined');
    }
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('shows each refusal the server sends in Spanish, with the values it names', () => {
    for (const code of codes) {
      const english = written(SERVER_ERROR_TEXTS[code]);
      expect(localizeServerText(english, 'es'), code).toBe(written(SERVER_ERROR_TEXTS_ES[code]));
      // The spec's texts are the same objects in both: the interface's English pair has them.
      if (SERVER_ERROR_TEXTS[code] === SERVER_ERROR_TEXTS_ES[code]) continue;
      expect(localizeServerText(english, 'en'), code).toBe(english);
    }
  });

  it("keeps the spec's own texts verbatim", () => {
    expect(shownErrorText('es', 'UPLOAD_TOO_LARGE')).toBe(TEXTS.uploadTooLarge);
    expect(shownErrorText('es', 'TAG_NAME_TAKEN', 'Stone')).toBe(TEXTS.tagDuplicate('Stone'));
  });

  it('reads values back as they were written', () => {
    expect(shownErrorText('es', 'TOO_MANY_SIGN_INS', 45)).toBe(
      'Demasiados intentos de inicio de sesión. Vuelve a intentarlo dentro de 45 segundos.',
    );
    expect(localizeServerText(errorText('USER_EXISTS', '0042'), 'es')).toBe(
      "El usuario '0042' ya existe",
    );
    expect(shownErrorText('en', 'USER_EXISTS', 'ana')).toBe(errorText('USER_EXISTS', 'ana'));
  });
});
