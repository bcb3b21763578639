// Any image shown repeated 3×3 to judge its seams (beyond the spec), in Spanish with its English
// twin (issue 30, part 5).
import type { Translation } from './i18n.js';

export const SEAMLESS_TEXTS = {
  /** The toggle under the image. */
  tiledPreview: 'Ver en mosaico 3×3',
  /** The repeated image's name, after the image's own. */
  tiledImage: (alt: string) => `${alt} (en mosaico 3×3)`,
} as const;

/** SEAMLESS_TEXTS in English. */
export const SEAMLESS_TEXTS_EN: Translation<typeof SEAMLESS_TEXTS> = {
  tiledPreview: 'Preview tiled 3×3',
  tiledImage: (alt: string) => `${alt} (tiled 3×3)`,
};
