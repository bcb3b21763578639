// The interface's two languages (issue 30, part 5). The Spanish objects (TEXTS, ADMIN_TEXTS, …)
// stay the source: the default language shows them as they are, so every SPEC text is verbatim
// in it. Each has an English object of the same keys beside it; the types below make a missing,
// extra or differently-called text a compile error, and i18n.test.ts checks the values.

/** The languages the interface speaks; the first is the default (SPEC: dates in es-ES). */
export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'es';

/**
 * The locale dates and numbers are written in. English is en-GB: a studio in Spain reads dates
 * day first and times on a 24-hour clock as es-ES writes them, only the words change; en-US would
 * turn 03/04 into March the 4th. The interface's English is British too ("colour").
 */
export const INTL_LOCALES = { es: 'es-ES', en: 'en-GB' } as const satisfies Record<Locale, string>;

/** What each language is called in the switch: in its own language, so anyone can find theirs. */
export const LOCALE_NAMES = { es: 'Español', en: 'English' } as const satisfies Record<
  Locale,
  string
>;

/** Where the browser keeps the chosen language. */
export const LOCALE_STORAGE_KEY = 'tessera.lang';

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/**
 * The language of a browser that chose none here: the first of its languages Tessera speaks
 * (en-GB, en-US… are English; es-* Spanish), else the default.
 */
export function localeFromBrowser(languages: readonly string[]): Locale {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (isLocale(primary)) return primary;
  }
  return DEFAULT_LOCALE;
}

/**
 * The English twin of a Spanish text object: the same keys at every depth, a string for each
 * string and a function of the same parameters for each function.
 */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => R
    : T extends readonly unknown[]
      ? { readonly [K in keyof T]: Translation<T[K]> }
      : T extends object
        ? { readonly [K in keyof T]: Translation<T[K]> }
        : T;

/** One text object in both languages. */
export interface TextPair<T> {
  readonly es: T;
  readonly en: Translation<T>;
}

/** Pairs a Spanish text object with its English twin (the type checks the twin's shape). */
export function textPair<T>(es: T, en: Translation<NoInfer<T>>): TextPair<T> {
  return { es, en };
}

/** The text object of a pair in a language. */
export function textsIn<T>(pair: TextPair<T>, locale: Locale): T {
  // Translation<T> has T's shape by construction; the cast only forgets the literal types.
  return (locale === 'es' ? pair.es : pair.en) as T;
}
