// A typed view of the image metadata fields of SPEC §3 "Metadata fields read".
import { parseDateValue, readImageDate } from './dates.js';
import { sizeLabelFromFactors, type HdSizeLabel } from './hd-sizes.js';
import { PREVIEW_METADATA_KEYS, weightFromStyle, type PreviewSettings } from './generation.js';
import { DIGITS_PATTERN, toFiniteNumber } from './numbers.js';

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
  };
}
