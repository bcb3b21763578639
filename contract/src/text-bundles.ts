// Every text object of the interface with its English twin, in one table (issue 30, part 5).
// A new pair plugs in with one line here, e.g. `apiTokens: textPair(API_TOKEN_TEXTS,
// API_TOKEN_TEXTS_EN)`; i18n.test.ts then checks it and the web reads it with useTexts.
import { ADMIN_TEXTS_EN } from './admin-texts-en.js';
import { API_TOKEN_TEXTS, API_TOKEN_TEXTS_EN } from './api-token-texts.js';
import { RETENTION_TEXTS, RETENTION_TEXTS_EN } from './admin-retention.js';
import { ADMIN_TEXTS } from './admin-texts.js';
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
} as const satisfies Record<string, TextPair<unknown>>;

export type TextBundleName = keyof typeof TEXT_BUNDLES;

/** Every string of a text object at any depth, with its path ("layingPatterns.stack"). */
export function textLeaves(value: unknown, path = ''): [string, unknown][] {
  if (typeof value === 'string' || typeof value === 'function') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    textLeaves(child, path === '' ? key : `${path}.${key}`),
  );
}

let englishBySpanish: Map<string, string> | undefined;

/**
 * A text the server wrote (an `error` field, an MQTT status) in the chosen language. The server
 * writes the default language's texts, which are the contract's: a fixed one found in a pair is
 * swapped for its twin; any other (most are English already, or name values) is shown as sent.
 */
export function localizeServerText(text: string, locale: Locale): string {
  if (locale === 'es') return text;
  englishBySpanish ??= new Map(
    Object.values(TEXT_BUNDLES as Record<string, TextPair<unknown>>).flatMap((pair) => {
      const english = new Map(textLeaves(pair.en));
      return textLeaves(pair.es).flatMap(([path, spanish]): [string, string][] => {
        const twin = english.get(path);
        return typeof spanish === 'string' && typeof twin === 'string' ? [[spanish, twin]] : [];
      });
    }),
  );
  return englishBySpanish.get(text) ?? text;
}
