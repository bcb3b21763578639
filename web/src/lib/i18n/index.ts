// The interface's language (issue 30, part 5). i18next holds the current language and tells
// react-i18next's hooks when it changes; the texts themselves are the contract's typed objects
// (TEXT_BUNDLES), read with useTexts, so a missing text is a compile error, not a runtime key.
import {
  DEFAULT_LOCALE,
  INTL_LOCALES,
  isLocale,
  LOCALE_STORAGE_KEY,
  localeFromBrowser,
  LOCALES,
  localizeServerText,
  textsIn,
} from '@tessera/contract';
import type { Locale, TextPair } from '@tessera/contract';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  // The default until start-up applies the browser's choice: tests render in it as the spec reads.
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  resources: {},
  initAsync: false,
  showSupportNotice: false,
  react: { useSuspense: false },
});

/** The language now shown. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

function reflectOnPage(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = INTL_LOCALES[locale];
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
  const { i18n: instance } = useTranslation(undefined, { i18n });
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

/** A text object in the language now shown, e.g. useTexts(TEXT_BUNDLES.texts). */
export function useTexts<T>(pair: TextPair<T>): T {
  return textsIn(pair, useLocale());
}

/** The same, for code outside components: read when the text is written, not before. */
export function currentTexts<T>(pair: TextPair<T>): T {
  return textsIn(pair, currentLocale());
}

/** A text the server wrote, in the language now shown. */
export function serverText(text: string): string {
  return localizeServerText(text, currentLocale());
}

/** Numbers in the language now shown (es-ES by default). */
export function useNumberFormat(options?: Intl.NumberFormatOptions): (value: number) => string {
  const locale = useLocale();
  return (value) => value.toLocaleString(INTL_LOCALES[locale], options);
}
