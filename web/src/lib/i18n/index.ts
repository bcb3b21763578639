// The interface's language (issue 30, part 5). i18next holds the current language (locale.ts)
// and react-i18next re-renders the components that read it; the texts themselves are the
// contract's typed objects (TEXT_BUNDLES), so a missing text is a compile error, not a key.
import {
  DEFAULT_LOCALE,
  INTL_LOCALES,
  isLocale,
  LOCALE_STORAGE_KEY,
  localeFromBrowser,
  textsIn,
} from '@tessera/contract';
import type { Locale, TextPair } from '@tessera/contract';
import { useTranslation } from 'react-i18next';
import { i18n } from './locale';

export { currentLocale, currentTexts, serverText } from './locale';

function reflectOnPage(locale: Locale): void {
  document.documentElement.lang = INTL_LOCALES[locale];
}

function storedLocale(): Locale | undefined {
  try {
    const stored = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(stored) ? stored : undefined;
  } catch {
    return undefined; // storage refused (a privacy setting): the browser's languages decide
  }
}

/** At start-up: the language chosen here before, else the browser's. */
export function applyBrowserLocale(): void {
  const locale = storedLocale() ?? localeFromBrowser(navigator.languages);
  void i18n.changeLanguage(locale);
  reflectOnPage(locale);
}

/** The switch: shows `locale` now and remembers it in this browser. */
export function chooseLocale(locale: Locale): void {
  void i18n.changeLanguage(locale);
  reflectOnPage(locale);
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not remembered where storage is refused; shown all the same.
  }
}

/** The language now shown; the component renders again when it changes. */
export function useLocale(): Locale {
  const { i18n: instance } = useTranslation(undefined, { i18n, useSuspense: false });
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

/** A text object in the language now shown, e.g. useTexts(TEXT_BUNDLES.texts). */
export function useTexts<T>(pair: TextPair<T>): T {
  return textsIn(pair, useLocale());
}
