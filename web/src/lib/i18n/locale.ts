// The language now shown, for any code (no DOM, no React: lib/messaging runs under Node in the
// server's browser-protocol test). i18next holds it; index.ts adds the hooks and the switch.
import { DEFAULT_LOCALE, isLocale, LOCALES, localizeServerText, textsIn } from '@tessera/contract';
import type { Locale, TextPair } from '@tessera/contract';
import i18next from 'i18next';
import type { i18n as I18n } from 'i18next';

export const i18n: I18n = i18next.createInstance();
void i18n.init({
  // The default until start-up applies the browser's choice: tests render in it as the spec reads.
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // The texts are the contract's typed objects (TEXT_BUNDLES), not i18next resources.
  resources: {},
  initAsync: false,
});

/** The language now shown. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** A text object in the language now shown, for code outside components: read when writing. */
export function currentTexts<T>(pair: TextPair<T>): T {
  return textsIn(pair, currentLocale());
}

/** A text the server wrote, in the language now shown. */
export function serverText(text: string): string {
  return localizeServerText(text, currentLocale());
}
