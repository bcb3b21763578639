// The LD Image Details modal's texts (SPEC §2, checklist M1–M7), in Spanish with their English
// twin (issue 30, part 5). The fields SPEC names (reference image, positive prompt … seed, tags),
// Output Size and Generate HD stay as SPEC writes them in the default language; the rest is ours.
import type { Translation } from './i18n.js';

export const IMAGE_DETAILS_TEXTS = {
  referenceImage: 'Reference image',
  positivePrompt: 'Positive prompt',
  negativePrompt: 'Negative prompt',
  imaginationWeight: 'Imagination weight',
  similarity: 'Similarity',
  promptAdherence: 'Prompt adherence',
  styleWeight: 'Style weight',
  seed: 'Seed',
  tags: 'Tags',
  outputSize: 'Output Size',
  generateHd: 'Generate HD',

  /** "Use these settings": Generate opens with this image's settings (issue 13, feature 11). */
  remix: 'Usar estos ajustes',
  /** The Output Size select's empty choice. */
  selectSize: 'Elige un tamaño',
  /** Names the HD order's section. */
  hdVersion: 'Versión HD',
  /** A face of a series (issue 25): names the series' part of the details. */
  series: 'Serie',
  /** Some of the series' faces are not in the gallery (deleted, or left out by a search). */
  facesInView: (shown: number, faces: number) => `${shown} de ${faces} caras a la vista`,
} as const;

/** IMAGE_DETAILS_TEXTS in English. */
export const IMAGE_DETAILS_TEXTS_EN: Translation<typeof IMAGE_DETAILS_TEXTS> = {
  referenceImage: 'Reference image',
  positivePrompt: 'Positive prompt',
  negativePrompt: 'Negative prompt',
  imaginationWeight: 'Imagination weight',
  similarity: 'Similarity',
  promptAdherence: 'Prompt adherence',
  styleWeight: 'Style weight',
  seed: 'Seed',
  tags: 'Tags',
  outputSize: 'Output Size',
  generateHd: 'Generate HD',

  remix: 'Use these settings',
  selectSize: 'Select a size',
  hdVersion: 'HD version',
  series: 'Series',
  facesInView: (shown: number, faces: number) => `${shown} of ${faces} faces in view`,
};
