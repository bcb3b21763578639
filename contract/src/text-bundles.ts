// Every text object of the interface with its English twin, in one table (issue 30, part 5).
// A new pair plugs in with one line here, e.g. `apiTokens: textPair(API_TOKEN_TEXTS,
// API_TOKEN_TEXTS_EN)`; i18n.test.ts then checks it and the web reads it with useTexts.
import { ADMIN_TEXTS_EN } from './admin-texts-en.js';
import { API_TOKEN_TEXTS, API_TOKEN_TEXTS_EN } from './api-token-texts.js';
import { RETENTION_TEXTS, RETENTION_TEXTS_EN } from './admin-retention.js';
import { ADMIN_TEXTS } from './admin-texts.js';
import { DETAIL_TEXTS, DETAIL_TEXTS_EN } from './detail.js';
import { DIALOG_TEXTS, DIALOG_TEXTS_EN } from './dialog-texts.js';
import { IMAGE_DETAILS_TEXTS, IMAGE_DETAILS_TEXTS_EN } from './image-details-texts.js';
import { MATERIAL_MAPS_TEXTS, MATERIAL_MAPS_TEXTS_EN } from './material-maps.js';
import { MATERIAL_TEXTS, MATERIAL_TEXTS_EN } from './material-package.js';
import { MATERIAL_README_TEXTS, MATERIAL_README_TEXTS_EN } from './material-readme-texts.js';
import { OUTPUT_TEXTS, OUTPUT_TEXTS_EN } from './output-texts.js';
import { PRINT_TEXTS, PRINT_TEXTS_EN } from './print-texts.js';
import { SEAMLESS_TEXTS, SEAMLESS_TEXTS_EN } from './seamless-texts.js';
import { ZIP_TEXTS, ZIP_TEXTS_EN } from './zip-texts.js';
import { SERVER_ERROR_TEXT_PAIR } from './errors-es.js';
import { errorText, type ServerErrorArgs, type ServerErrorCode } from './errors.js';
import { USAGE_TEXTS, USAGE_TEXTS_EN } from './admin-usage-texts.js';
import {
  ENGINE_HELP_TEXTS,
  ENGINE_HELP_TEXTS_EN,
  PROMPT_CHIP_TEXTS,
  PROMPT_CHIP_TEXTS_EN,
  SYNTHESIS_TEXTS,
  SYNTHESIS_TEXTS_EN,
} from './engine-help.js';
import {
  DASHBOARD_TEXTS,
  DASHBOARD_TEXTS_EN,
  GALLERY_TEXTS,
  GALLERY_TEXTS_EN,
} from './gallery-texts.js';
import { GENERATE_TEXTS, GENERATE_TEXTS_EN } from './generate-texts.js';
import {
  HD_NOTIFICATION_TEXTS,
  HD_NOTIFICATION_TEXTS_EN,
  UPSCALE_TEXTS,
  UPSCALE_TEXTS_EN,
} from './hd-queue-texts.js';
import { INPUT_TEXTS, INPUT_TEXTS_EN } from './input-texts.js';
import { textPair, type Locale, type TextPair } from './i18n.js';
import { STORAGE_TEXTS, STORAGE_TEXTS_EN } from './quotas.js';
import { SHELL_TEXTS, SHELL_TEXTS_EN } from './shell-texts.js';
import {
  REFERENCE_ERROR_TEXTS,
  REFERENCE_ERROR_TEXTS_EN,
  REFERENCE_PREP_TEXTS,
  REFERENCE_PREP_TEXTS_EN,
  REFERENCE_WARNING_TEXTS,
  REFERENCE_WARNING_TEXTS_EN,
} from './reference-analysis.js';
import { SSO_TEXTS, SSO_TEXTS_EN } from './sso-texts.js';
import { TAG_TEXTS, TAG_TEXTS_EN } from './tag-texts.js';
import { textLeaves, twinFinder } from './text-twins.js';
import { TEXTS_EN } from './texts-en.js';
import { TEXTS } from './texts.js';
import { WEBHOOK_TEXTS, WEBHOOK_TEXTS_EN } from './webhook-texts.js';

export const TEXT_BUNDLES = {
  texts: textPair(TEXTS, TEXTS_EN),
  admin: textPair(ADMIN_TEXTS, ADMIN_TEXTS_EN),
  shell: textPair(SHELL_TEXTS, SHELL_TEXTS_EN),
  storage: textPair(STORAGE_TEXTS, STORAGE_TEXTS_EN),
  apiTokens: textPair(API_TOKEN_TEXTS, API_TOKEN_TEXTS_EN),
  webhooks: textPair(WEBHOOK_TEXTS, WEBHOOK_TEXTS_EN),
  sso: textPair(SSO_TEXTS, SSO_TEXTS_EN),
  retention: textPair(RETENTION_TEXTS, RETENTION_TEXTS_EN),
  usage: textPair(USAGE_TEXTS, USAGE_TEXTS_EN),
  generate: textPair(GENERATE_TEXTS, GENERATE_TEXTS_EN),
  engineHelp: textPair(ENGINE_HELP_TEXTS, ENGINE_HELP_TEXTS_EN),
  promptChips: textPair(PROMPT_CHIP_TEXTS, PROMPT_CHIP_TEXTS_EN),
  synthesis: textPair(SYNTHESIS_TEXTS, SYNTHESIS_TEXTS_EN),
  referenceWarnings: textPair(REFERENCE_WARNING_TEXTS, REFERENCE_WARNING_TEXTS_EN),
  referenceErrors: textPair(REFERENCE_ERROR_TEXTS, REFERENCE_ERROR_TEXTS_EN),
  referencePrep: textPair(REFERENCE_PREP_TEXTS, REFERENCE_PREP_TEXTS_EN),
  tags: textPair(TAG_TEXTS, TAG_TEXTS_EN),
  gallery: textPair(GALLERY_TEXTS, GALLERY_TEXTS_EN),
  dashboard: textPair(DASHBOARD_TEXTS, DASHBOARD_TEXTS_EN),
  upscale: textPair(UPSCALE_TEXTS, UPSCALE_TEXTS_EN),
  hdNotifications: textPair(HD_NOTIFICATION_TEXTS, HD_NOTIFICATION_TEXTS_EN),
  inputs: textPair(INPUT_TEXTS, INPUT_TEXTS_EN),
  print: textPair(PRINT_TEXTS, PRINT_TEXTS_EN),
  detail: textPair(DETAIL_TEXTS, DETAIL_TEXTS_EN),
  material: textPair(MATERIAL_TEXTS, MATERIAL_TEXTS_EN),
  materialReadme: textPair(MATERIAL_README_TEXTS, MATERIAL_README_TEXTS_EN),
  materialMaps: textPair(MATERIAL_MAPS_TEXTS, MATERIAL_MAPS_TEXTS_EN),
  zip: textPair(ZIP_TEXTS, ZIP_TEXTS_EN),
  seamless: textPair(SEAMLESS_TEXTS, SEAMLESS_TEXTS_EN),
  output: textPair(OUTPUT_TEXTS, OUTPUT_TEXTS_EN),
  imageDetails: textPair(IMAGE_DETAILS_TEXTS, IMAGE_DETAILS_TEXTS_EN),
  dialog: textPair(DIALOG_TEXTS, DIALOG_TEXTS_EN),
} as const satisfies Record<string, TextPair<unknown>>;

export type TextBundleName = keyof typeof TEXT_BUNDLES;

export { textLeaves };

/** Every pair's Spanish objects to their English twins (the server's Spanish texts). */
let englishOf: ((text: string) => string | undefined) | undefined;
/** The server's own refusals (errors.ts, English) to their Spanish twins. */
let spanishOf: ((text: string) => string | undefined) | undefined;

/**
 * A text the server wrote (an `error` field, an MQTT status) in the chosen language. The server
 * writes the default language's texts, which are the contract's, and its own refusals in English
 * (errors.ts): a text found in a pair is swapped for its twin, one that names values too when its
 * words can be read back (text-twins.ts). Any other is shown as sent; so are the spec's own texts
 * in Spanish, whose twins in errors-es.ts are the spec's.
 */
export function localizeServerText(text: string, locale: Locale): string {
  if (locale === 'es') {
    // Refusals only, each with words of its own: a short one ("No user 'x'") is specific enough.
    spanishOf ??= twinFinder([[SERVER_ERROR_TEXT_PAIR.en, SERVER_ERROR_TEXT_PAIR.es]], 5);
    return spanishOf(text) ?? text;
  }
  englishOf ??= twinFinder(
    Object.values(TEXT_BUNDLES as Record<string, TextPair<unknown>>).map(
      (pair) => [pair.es, pair.en] as const,
    ),
  );
  return englishOf(text) ?? text;
}

/** A refusal of errors.ts as the interface shows it in `locale` (es by default). */
export function shownErrorText<C extends ServerErrorCode>(
  locale: Locale,
  code: C,
  ...args: ServerErrorArgs<C>
): string {
  return localizeServerText(errorText(code, ...args), locale);
}
