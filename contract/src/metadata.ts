// A typed view of the image metadata fields of SPEC §3 "Metadata fields read".
import { parseDateValue, readImageDate } from './dates.js';
import { sizeLabelFromFactors, type HdSizeLabel } from './hd-sizes.js';
import { z } from 'zod';
import {
  PREVIEW_METADATA_KEYS,
  SYNTHESIS_MODES,
  SYNTHESIS_USED_METADATA_KEY,
  weightFromStyle,
  type PreviewSettings,
  type SynthesisMode,
  type SynthesisUsed,
} from './generation.js';
import { DIGITS_PATTERN, toFiniteNumber } from './numbers.js';
import {
  PROMPT_COLOUR_MODIFIERS,
  PROMPT_TERMS_METADATA_KEY,
  type ColourModifier,
  type PromptTerms,
  type UnderstoodTerm,
} from './prompt-vocabulary.js';

/** The seed used for HD when the metadata has none (SPEC §9). */
export const DEFAULT_HD_SEED = '10';

/** The settings read back as they were given (PreviewSettings), each undefined when missing. */
type RecordedSettings = {
  [
    K in
      | 'positivePrompt'
      | 'negativePrompt'
      | 'imaginationWeight'
      | 'similarity'
      | 'promptAdherence'
      | 'style'
  ]: PreviewSettings[K] | undefined;
};

export interface ImageMetadata extends RecordedSettings {
  inputImagePath: string | undefined;
  /** Style as the form shows it: style x 100, rounded. */
  styleWeight: number | undefined;
  /** Kept as text: engine seeds can exceed the integers a number holds exactly. */
  seed: string | undefined;
  latentWidth: number | undefined;
  latentHeight: number | undefined;
  createdAt: Date | undefined;
  updatedAt: Date | undefined;
  rescaleFactorCr711: number | undefined;
  scaleByLatent707: number | undefined;
  rescaleFactorCr701: number | undefined;
  scaleByImage692: number | undefined;
  sizeLabel: HdSizeLabel | undefined;
  /** Beyond the spec (issue 25): the image is one face of a series. */
  series: SeriesFace | undefined;
  /** Beyond the spec (issue 27): the prompts' words the builtin engine understood and acted on. */
  promptTerms: PromptTerms | undefined;
  /** Beyond the spec (issue 27): the synthesis mode asked for ('auto' included). */
  synthesis: SynthesisMode | undefined;
  /** Beyond the spec (issue 27): the synthesis mode the builtin engine used. */
  synthesisUsed: SynthesisUsed | undefined;
}

/**
 * Beyond the spec (issue 25): the metadata keys of an LD image that is one face of a series,
 * written only on a series (a single image's metadata is the spec's).
 */
export const SERIES_METADATA_KEYS = {
  seriesId: 'series_id',
  face: 'face',
  faces: 'faces',
} as const;

/** Where an image stands in its series: the series' id, its face (1..faces), the series' size. */
export interface SeriesFace {
  seriesId: string;
  face: number;
  faces: number;
}

/** The metadata a face of a series carries, under SERIES_METADATA_KEYS. */
export function seriesMetadata(face: SeriesFace): Record<string, string | number> {
  return {
    [SERIES_METADATA_KEYS.seriesId]: face.seriesId,
    [SERIES_METADATA_KEYS.face]: face.face,
    [SERIES_METADATA_KEYS.faces]: face.faces,
  };
}

/** The image's place in a series, or undefined for a single image (or unreadable series keys). */
export function readSeriesFace(metadata: Record<string, unknown>): SeriesFace | undefined {
  const seriesId = metadata[SERIES_METADATA_KEYS.seriesId];
  const face = toFiniteNumber(metadata[SERIES_METADATA_KEYS.face]);
  const faces = toFiniteNumber(metadata[SERIES_METADATA_KEYS.faces]);
  if (typeof seriesId !== 'string' || seriesId === '') return undefined;
  if (face === undefined || faces === undefined) return undefined;
  if (!Number.isInteger(face) || !Number.isInteger(faces) || face < 1 || face > faces)
    return undefined;
  return { seriesId, face, faces };
}

function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readSeedValue(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return DIGITS_PATTERN.test(text) ? text : undefined;
}

/** kseed when usable, else seed, as digits; undefined when neither is a non-negative integer. */
export function readSeed(metadata: Record<string, unknown>): string | undefined {
  return readSeedValue(metadata[PREVIEW_METADATA_KEYS.seed]) ?? readSeedValue(metadata['seed']);
}

/** The seed an HD command carries: the image's own seed, falling back to '10'. */
export function hdSeedFromMetadata(metadata: Record<string, unknown>): string {
  return readSeed(metadata) ?? DEFAULT_HD_SEED;
}

const KEYS = PREVIEW_METADATA_KEYS;

const MODIFIERS = Object.keys(PROMPT_COLOUR_MODIFIERS) as [ColourModifier, ...ColourModifier[]];

/** One recorded term; `modifiers` only where the shape allows it (a colour's). */
const understoodTermSchema = z.object({
  kind: z.enum(['colour', 'scale', 'finish']),
  id: z.string().min(1),
  modifiers: z.array(z.enum(MODIFIERS)).optional(),
  text: z.string().min(1),
});

/** The terms of one side, each read alone: a term this version cannot read is left out. */
function readTerms(value: unknown): UnderstoodTerm[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const term = understoodTermSchema.safeParse(item);
    return term.success ? [term.data as UnderstoodTerm] : [];
  });
}

/**
 * The terms the builtin engine recorded under PROMPT_TERMS_METADATA_KEY; undefined when the image
 * has none (another engine's, or made before issue 27).
 */
export function readPromptTerms(metadata: Record<string, unknown>): PromptTerms | undefined {
  const value = metadata[PROMPT_TERMS_METADATA_KEY];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const sides = value as Record<string, unknown>;
  return { positive: readTerms(sides['positive']), negative: readTerms(sides['negative']) };
}

function readSynthesis(value: unknown): SynthesisMode | undefined {
  return SYNTHESIS_MODES.find((mode) => mode === value);
}

function readSynthesisUsed(value: unknown): SynthesisUsed | undefined {
  const mode = readSynthesis(value);
  return mode === 'auto' ? undefined : mode;
}

export function readImageMetadata(metadata: Record<string, unknown>): ImageMetadata {
  const number = (key: string) => toFiniteNumber(metadata[key]);
  const style = number(KEYS.style);
  return {
    inputImagePath: readString(metadata['input_image_path']),
    positivePrompt: readString(metadata[KEYS.positivePrompt]),
    negativePrompt: readString(metadata[KEYS.negativePrompt]),
    imaginationWeight: number(KEYS.imaginationWeight),
    similarity: number(KEYS.similarity),
    promptAdherence: number(KEYS.promptAdherence),
    style,
    styleWeight: style === undefined ? undefined : weightFromStyle(style),
    seed: readSeed(metadata),
    latentWidth: number(KEYS.width),
    latentHeight: number(KEYS.height),
    createdAt: readImageDate(metadata),
    updatedAt: parseDateValue(metadata['updatedAt']),
    rescaleFactorCr711: number('rescale_factor_cr711'),
    scaleByLatent707: number('scale_by_latent707'),
    rescaleFactorCr701: number('rescale_factor_cr701'),
    scaleByImage692: number('scale_by_image692'),
    sizeLabel: sizeLabelFromFactors(metadata),
    series: readSeriesFace(metadata),
    promptTerms: readPromptTerms(metadata),
    synthesis: readSynthesis(metadata[KEYS.synthesis]),
    synthesisUsed: readSynthesisUsed(metadata[SYNTHESIS_USED_METADATA_KEY]),
  };
}
