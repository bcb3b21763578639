// Upload limits of SPEC §5, checked by the browser before upload and by the server on receipt.
import { UPLOAD_MAX_PIXELS } from './constants.js';
import { DEFAULT_LOCALE, type Locale } from './i18n.js';
import { TEXTS_EN } from './texts-en.js';
import { TEXTS } from './texts.js';

/** The upload texts of a language: the spec's own in the default one. */
const textsOf = (locale: Locale) => (locale === 'es' ? TEXTS : TEXTS_EN);

export const UPLOAD_EXTENSIONS = ['png', 'jpg', 'jpeg', 'bmp', 'gif', 'webp'] as const;
/** 25 MB. */
export const UPLOAD_MAX_BYTES = 26_214_400;

/** The file name's extension, lower-case, or '' when it has none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The error text for a file's name and byte size, or undefined when both are acceptable. */
export function validateUploadFile(
  file: { name: string; size: number },
  locale: Locale = DEFAULT_LOCALE,
): string | undefined {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(fileExtension(file.name))) {
    return textsOf(locale).uploadFormat;
  }
  // Written as "not within" so that NaN is refused too.
  if (!(file.size <= UPLOAD_MAX_BYTES)) return textsOf(locale).uploadTooLarge;
  return undefined;
}

/** The error text for an image's dimensions, or undefined when its area is within the limit. */
export function validateUploadPixels(
  width: number,
  height: number,
  locale: Locale = DEFAULT_LOCALE,
): string | undefined {
  const readable = Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0;
  if (!readable) return textsOf(locale).uploadUnreadable;
  return width * height > UPLOAD_MAX_PIXELS
    ? textsOf(locale).uploadPixels(width, height)
    : undefined;
}
