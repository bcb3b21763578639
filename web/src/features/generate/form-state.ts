import {
  GENERATION_DEFAULTS,
  GENERATION_RANGES,
  SERIES_METADATA_KEYS,
  formatByName,
  formatBySize,
  readImageMetadata,
  reusableSeed,
} from '@tessera/contract';
import type { GenerationForm, OutputFormatName, SynthesisMode } from '@tessera/contract';

/**
 * The Generate form as the screen holds it. Number fields stay the text the person typed, so
 * a half-typed "3." is never rewritten under their cursor; `toGenerationForm` reads them.
 */
export interface FormFields {
  positivePrompt: string;
  negativePrompt: string;
  outputFormat: OutputFormatName;
  imaginationWeight: string;
  similarity: string;
  promptAdherence: string;
  styleWeight: string;
  tiling: boolean;
  mask: boolean;
  batchSize: string;
  /** Beyond the spec (issue 25): the faces of a series, 1 for a single image. */
  faces: string;
  /** Beyond the spec (issue 27): how the builtin engine makes the previews. */
  synthesis: SynthesisMode;
  useFixedSeed: boolean;
  /** The seed of every image while useFixedSeed is on: 10, or that of an image reused. */
  fixedSeed: number;
}

export type NumberFieldName =
  'imaginationWeight' | 'similarity' | 'promptAdherence' | 'styleWeight' | 'batchSize' | 'faces';

function defaultFormat(): OutputFormatName {
  const format = formatBySize(GENERATION_DEFAULTS.latent_width, GENERATION_DEFAULTS.latent_height);
  return format?.name ?? 'Square';
}

/** SPEC §3's defaults (checklist G7). */
export const DEFAULT_FIELDS: FormFields = {
  positivePrompt: '',
  negativePrompt: '',
  outputFormat: defaultFormat(),
  imaginationWeight: String(GENERATION_DEFAULTS.imaginationWeight),
  similarity: String(GENERATION_DEFAULTS.similarity),
  promptAdherence: String(GENERATION_DEFAULTS.promptAdherence),
  styleWeight: String(GENERATION_DEFAULTS.styleWeight),
  tiling: GENERATION_DEFAULTS.tiling,
  mask: GENERATION_DEFAULTS.mask,
  batchSize: String(GENERATION_DEFAULTS.batchSize),
  faces: String(GENERATION_DEFAULTS.faces),
  synthesis: GENERATION_DEFAULTS.synthesis,
  useFixedSeed: GENERATION_DEFAULTS.use_fixed_seed,
  fixedSeed: GENERATION_DEFAULTS.seed,
};

/** An emptied field is NaN, which the contract's range checks refuse (Number('') would be 0). */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The form the contract validates and turns into a preview request. */
export function toGenerationForm(fields: FormFields): GenerationForm {
  const format = formatByName(fields.outputFormat);
  return {
    positivePrompt: fields.positivePrompt,
    negativePrompt: fields.negativePrompt,
    imaginationWeight: numberOf(fields.imaginationWeight),
    similarity: numberOf(fields.similarity),
    promptAdherence: numberOf(fields.promptAdherence),
    styleWeight: numberOf(fields.styleWeight),
    tiling: fields.tiling,
    mask: fields.mask,
    batchSize: numberOf(fields.batchSize),
    faces: numberOf(fields.faces),
    synthesis: fields.synthesis,
    use_fixed_seed: fields.useFixedSeed,
    seed: fields.fixedSeed,
    latent_width: format?.width ?? Number.NaN,
    latent_height: format?.height ?? Number.NaN,
  };
}

/**
 * The image's own seed, fixed, so the same settings make the same image again; a seed a preview
 * request cannot carry (another engine's) leaves a random one.
 */
function seedFields(
  seed: string | undefined,
  current: FormFields,
): Pick<FormFields, 'useFixedSeed' | 'fixedSeed'> {
  if (seed === undefined)
    return { useFixedSeed: current.useFixedSeed, fixedSeed: current.fixedSeed };
  const reused = reusableSeed(seed);
  return reused === undefined
    ? { useFixedSeed: false, fixedSeed: current.fixedSeed }
    : { useFixedSeed: true, fixedSeed: reused };
}

/**
 * The faces of the series an image belongs to (issue 25), so its settings make a series again;
 * a single image (no `faces` key, or none usable) was made with 1.
 */
function facesFromMetadata(metadata: Record<string, unknown>): string {
  const faces = Number(metadata[SERIES_METADATA_KEYS.faces]);
  const { min, max } = GENERATION_RANGES.faces;
  return Number.isInteger(faces) && faces >= min && faces <= max
    ? String(faces)
    : String(GENERATION_DEFAULTS.faces);
}

/**
 * The fields an image was generated with, read from its metadata (a footer thumbnail clicked);
 * what the metadata lacks keeps its current value, but Faces, which is 1 for an image without
 * it, and Synthesis, Automatic (issue 27: an image made before it was asked nothing). The batch
 * size is the person's, not the image's.
 */
export function fieldsFromMetadata(
  metadata: Record<string, unknown>,
  current: FormFields,
): FormFields {
  const read = readImageMetadata(metadata);
  const text = (value: number | undefined, fallback: string) =>
    value === undefined ? fallback : String(value);
  const format =
    read.latentWidth !== undefined && read.latentHeight !== undefined
      ? formatBySize(read.latentWidth, read.latentHeight)
      : undefined;
  const flag = (key: string, fallback: boolean) => {
    const value = metadata[key];
    return typeof value === 'boolean' ? value : fallback;
  };
  return {
    ...current,
    positivePrompt: read.positivePrompt ?? current.positivePrompt,
    negativePrompt: read.negativePrompt ?? current.negativePrompt,
    outputFormat: format?.name ?? current.outputFormat,
    imaginationWeight: text(read.imaginationWeight, current.imaginationWeight),
    similarity: text(read.similarity, current.similarity),
    promptAdherence: text(read.promptAdherence, current.promptAdherence),
    styleWeight: text(read.styleWeight, current.styleWeight),
    // Written by this product's engines beside the fields SPEC §3 lists.
    tiling: flag('seamless', current.tiling),
    mask: flag('mask', current.mask),
    faces: facesFromMetadata(metadata),
    synthesis: read.synthesis ?? GENERATION_DEFAULTS.synthesis,
    ...seedFields(read.seed, current),
  };
}
