// A typed view of the image metadata fields of SPEC §3 "Metadata fields read".
import { parseDateValue, readImageDate } from './dates.js';
import { sizeLabelFromFactors, type HdSizeLabel } from './hd-sizes.js';
import { weightFromStyle } from './generation.js';
import { DIGITS_PATTERN, toFiniteNumber } from './numbers.js';

/** The seed used for HD when the metadata has none (SPEC §9). */
export const DEFAULT_HD_SEED = '10';

export interface ImageMetadata {
  inputImagePath: string | undefined;
  positivePrompt: string | undefined;
  negativePrompt: string | undefined;
  imaginationWeight: number | undefined;
  similarity: number | undefined;
  promptAdherence: number | undefined;
  /** Stored style, 0 to 1. */
  style: number | undefined;
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
  return readSeedValue(metadata['kseed']) ?? readSeedValue(metadata['seed']);
}

/** The seed an HD command carries: the image's own seed, falling back to '10'. */
export function hdSeedFromMetadata(metadata: Record<string, unknown>): string {
  return readSeed(metadata) ?? DEFAULT_HD_SEED;
}

export function readImageMetadata(metadata: Record<string, unknown>): ImageMetadata {
  const number = (key: string) => toFiniteNumber(metadata[key]);
  const style = number('style');
  return {
    inputImagePath: readString(metadata['input_image_path']),
    positivePrompt: readString(metadata['cliptextencode_585']),
    negativePrompt: readString(metadata['cliptextencode_716']),
    imaginationWeight: number('ksampler_cfg'),
    similarity: number('ksampler_denoise'),
    promptAdherence: number('ipadapter_weight'),
    style,
    styleWeight: style === undefined ? undefined : weightFromStyle(style),
    seed: readSeed(metadata),
    latentWidth: number('latent_width'),
    latentHeight: number('latent_height'),
    createdAt: readImageDate(metadata),
    updatedAt: parseDateValue(metadata['updatedAt']),
    rescaleFactorCr711: number('rescale_factor_cr711'),
    scaleByLatent707: number('scale_by_latent707'),
    rescaleFactorCr701: number('rescale_factor_cr701'),
    scaleByImage692: number('scale_by_image692'),
    sizeLabel: sizeLabelFromFactors(metadata),
  };
}
