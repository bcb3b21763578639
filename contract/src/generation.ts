// The generation form of SPEC §3/§5 and the preview request it becomes (SPEC §7).
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';
import { formatBySize } from './formats.js';
import { DIGITS_PATTERN, NUMERIC_STRING_PATTERN } from './numbers.js';
import { TEXTS } from './texts.js';

export const FIXED_SEED = 10;
/** Random seeds are integers below this (2^32). */
export const SEED_LIMIT = 2 ** 32;
export const PROMPT_MAX_LENGTH = 2000;

/**
 * Beyond the spec (issue 27): how the builtin engine makes a preview. 'quilting' copies patches
 * of the reference (structured materials: bricks, planks, veins); 'blending' blends random
 * tiles of it preserving its histogram (Heitz & Neyret 2018; stochastic materials: granite,
 * sand, terrazzo); 'auto' lets the engine decide from the reference. Other engines ignore it.
 */
export const SYNTHESIS_MODES = ['auto', 'quilting', 'blending'] as const;
export type SynthesisMode = (typeof SYNTHESIS_MODES)[number];
/** The mode the builtin engine used (never 'auto'), recorded under SYNTHESIS_USED_METADATA_KEY. */
export type SynthesisUsed = Exclude<SynthesisMode, 'auto'>;
export const SYNTHESIS_USED_METADATA_KEY = 'synthesis_used';

export interface GenerationForm {
  positivePrompt: string;
  negativePrompt: string;
  imaginationWeight: number;
  similarity: number;
  promptAdherence: number;
  /** 0 to 100; sent as style = styleWeight / 100. */
  styleWeight: number;
  /** Seamless output; sent as both seamless and circularVAE. */
  tiling: boolean;
  mask: boolean;
  batchSize: number;
  /**
   * Beyond the spec (issue 25): how many faces one generation makes. 1 is a single image, as
   * the spec's flows have it; more makes a series of faces of one design that, seamless, join
   * each other in any order.
   */
  faces: number;
  /** Beyond the spec (issue 27): the builtin engine's synthesis mode; 'auto' by default. */
  synthesis: SynthesisMode;
  use_fixed_seed: boolean;
  /**
   * The seed every image gets while use_fixed_seed is on: 10 (SPEC §9), or the seed of an image
   * whose settings are reused, so the same image can be made again.
   */
  seed: number;
  latent_width: number;
  latent_height: number;
}

export const GENERATION_DEFAULTS = {
  imaginationWeight: 3.5,
  similarity: 1,
  promptAdherence: 0.9,
  styleWeight: 0,
  tiling: false,
  mask: false,
  batchSize: 1,
  faces: 1,
  synthesis: 'auto',
  use_fixed_seed: true,
  seed: FIXED_SEED,
  latent_width: 1024,
  latent_height: 1024,
} as const satisfies Omit<GenerationForm, 'positivePrompt' | 'negativePrompt'>;

export interface NumberRange {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

export const GENERATION_RANGES = {
  imaginationWeight: { min: 0, max: 20, step: 0.1 },
  similarity: { min: 0, max: 1, step: 0.1 },
  promptAdherence: { min: 0, max: 2, step: 0.1 },
  styleWeight: { min: 0, max: 100, step: 1 },
  batchSize: { min: 1, max: 10, step: 1 },
  faces: { min: 1, max: 12, step: 1 },
} as const satisfies Record<string, NumberRange>;

/** Stored style (0 to 1) is the form's style weight (0 to 100) divided by 100. */
export function styleFromWeight(weight: number): number {
  return weight / 100;
}

export function weightFromStyle(style: number): number {
  return Math.round(style * 100);
}

/** The fixed seed (10 unless given) with use_fixed_seed, otherwise a random integer in [0, 2^32). */
export function seedFor(
  useFixedSeed: boolean,
  random: () => number = Math.random,
  fixedSeed: number = FIXED_SEED,
): number {
  if (useFixedSeed) return fixedSeed;
  return Math.min(Math.max(Math.floor(random() * SEED_LIMIT), 0), SEED_LIMIT - 1);
}

/**
 * An image's seed (metadata digits) as a seed a preview request can carry again, or undefined
 * when it is outside [0, 2^32) (another engine's seed).
 */
export function reusableSeed(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const seed = Number(digits);
  return Number.isSafeInteger(seed) && seed >= 0 && seed < SEED_LIMIT ? seed : undefined;
}

// Multipart fields arrive as text: a number field is a numeric string, range-checked as a number.
function numberField(range: { min: number; max: number }) {
  return z
    .string()
    .trim()
    .regex(NUMERIC_STRING_PATTERN, { message: 'Must be a number' })
    .transform(Number)
    .pipe(z.number().min(range.min).max(range.max));
}

function integerField(min: number, max: number) {
  return z
    .string()
    .trim()
    .regex(DIGITS_PATTERN, { message: 'Must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

function promptField(requiredMessage: string) {
  return z
    .string()
    .max(PROMPT_MAX_LENGTH, { message: TEXTS.promptTooLong(PROMPT_MAX_LENGTH) })
    .refine((text) => text.trim() !== '', { message: requiredMessage });
}

const LATENT_SIDE_MAX = 100_000;

/** The text fields of POST /api/command/generate-image/preview (the file part is separate). */
export const previewRequestSchema = z
  .object({
    id: z.string().min(1).max(128),
    user: z.string().min(1).max(64),
    image: fileNameSchema,
    cliptextencode_585: promptField(TEXTS.positivePromptRequired),
    cliptextencode_716: promptField(TEXTS.negativePromptRequired),
    ipadapter_weight: numberField(GENERATION_RANGES.promptAdherence),
    style: numberField({ min: 0, max: 1 }),
    ksampler_cfg: numberField(GENERATION_RANGES.imaginationWeight),
    ksampler_denoise: numberField(GENERATION_RANGES.similarity),
    use_fixed_seed: z.enum(['True', 'False']),
    latent_width: integerField(1, LATENT_SIDE_MAX),
    latent_height: integerField(1, LATENT_SIDE_MAX),
    Kseed: integerField(0, SEED_LIMIT - 1),
    seamless: z.enum(['enable', 'disable']),
    circularVAE: z.enum(['enable', 'disable']),
    // Not in SPEC §7's list, which has no field for the Mask toggle; absent means off.
    mask: z.enum(['enable', 'disable']).default('disable'),
    // Beyond the spec (issue 25): the faces of a series; absent means 1, a single image.
    faces: integerField(GENERATION_RANGES.faces.min, GENERATION_RANGES.faces.max).default(1),
    // Beyond the spec (issue 27): the builtin engine's synthesis mode; absent means 'auto'.
    synthesis: z.enum(SYNTHESIS_MODES).default('auto'),
  })
  .refine((fields) => formatBySize(fields.latent_width, fields.latent_height) !== undefined, {
    message: TEXTS.outputFormatInvalid,
    path: ['latent_width'],
  });

export type PreviewRequestFields = z.input<typeof previewRequestSchema>;
export type PreviewRequest = z.output<typeof previewRequestSchema>;

/** The wire fields of a preview request in SPEC §7's order (the multipart body's order). */
export const PREVIEW_REQUEST_FIELDS = Object.keys(
  previewRequestSchema.shape,
) as readonly (keyof PreviewRequestFields)[];

/**
 * The settings of one preview (LD) generation, resolved: what a job keeps, what every engine is
 * given and what the image's metadata records. The form (GenerationForm) reaches the server as
 * the wire shape (PreviewRequest, previewSettingsOf reads it); the metadata shape
 * (PreviewMetadata, previewMetadata writes it) records them under SPEC §3's keys.
 */
export interface PreviewSettings {
  positivePrompt: string;
  negativePrompt: string;
  /** ksampler_cfg, 0..20. */
  imaginationWeight: number;
  /** ksampler_denoise, 0..1: how closely the layout follows the reference. */
  similarity: number;
  /** ipadapter_weight, 0..2. */
  promptAdherence: number;
  /** style, 0..1 (the form's style weight / 100). */
  style: number;
  /** An unsigned 32-bit seed: same inputs and seed give identical pixels. */
  seed: number;
  /** The output format's size (contract OUTPUT_FORMATS). */
  width: number;
  height: number;
  /** The result tiles with no visible seam in both directions. */
  seamless: boolean;
  /** Use the reference's alpha channel to choose the region synthesis may copy from. */
  mask: boolean;
  /** The builtin engine's synthesis mode (issue 27); absent (jobs from before it) means 'auto'. */
  synthesis?: SynthesisMode;
}

/** The settings a preview request carries (its id, user and image name aside). */
export function previewSettingsOf(request: PreviewRequest): PreviewSettings {
  return {
    positivePrompt: request.cliptextencode_585,
    negativePrompt: request.cliptextencode_716,
    imaginationWeight: request.ksampler_cfg,
    similarity: request.ksampler_denoise,
    promptAdherence: request.ipadapter_weight,
    style: request.style,
    seed: request.Kseed,
    width: request.latent_width,
    height: request.latent_height,
    // The form sends circularVAE equal to seamless (previewRequestFields).
    seamless: request.seamless === 'enable',
    mask: request.mask === 'enable',
    synthesis: request.synthesis,
  };
}

/** The metadata key each setting is recorded under in an LD image (SPEC §3's metadata fields). */
export const PREVIEW_METADATA_KEYS = {
  positivePrompt: 'cliptextencode_585',
  negativePrompt: 'cliptextencode_716',
  imaginationWeight: 'ksampler_cfg',
  similarity: 'ksampler_denoise',
  promptAdherence: 'ipadapter_weight',
  style: 'style',
  seed: 'kseed',
  width: 'latent_width',
  height: 'latent_height',
  seamless: 'seamless',
  mask: 'mask',
  synthesis: 'synthesis',
} as const satisfies Record<keyof PreviewSettings, string>;

/** Every preview setting's name, once (the keys of PreviewSettings, in the metadata's order). */
const PREVIEW_SETTING_NAMES = Object.keys(
  PREVIEW_METADATA_KEYS,
) as readonly (keyof PreviewSettings)[];

/**
 * Only the preview settings of something that carries them and more (a job's params, an engine's
 * params), so the one shape travels from the job to the engine and on to its worker or workflow:
 * a new setting is added to PreviewSettings and nowhere on the way.
 */
export function previewSettingsIn(carrier: PreviewSettings): PreviewSettings {
  return Object.fromEntries(
    PREVIEW_SETTING_NAMES.map((name) => [name, carrier[name]]),
  ) as unknown as PreviewSettings;
}

/** An LD image's record of its settings: the same values under their metadata keys. */
export type PreviewMetadata = {
  [K in keyof PreviewSettings as (typeof PREVIEW_METADATA_KEYS)[K]]: PreviewSettings[K];
};

/** The settings as an LD image's metadata records them, in the keys' order; nothing else. */
export function previewMetadata(settings: PreviewSettings): PreviewMetadata {
  const keys = Object.entries(PREVIEW_METADATA_KEYS) as [keyof PreviewSettings, string][];
  return Object.fromEntries(
    keys.map(([setting, key]) => [key, settings[setting]]),
  ) as PreviewMetadata;
}

/** The multipart text fields for one preview job of the form. */
export function previewRequestFields(request: {
  id: string;
  user: string;
  imageName: string;
  form: GenerationForm;
  seed: number;
}): PreviewRequestFields {
  const { form } = request;
  const toggle = form.tiling ? 'enable' : 'disable';
  return {
    id: request.id,
    user: request.user,
    image: request.imageName,
    cliptextencode_585: form.positivePrompt,
    cliptextencode_716: form.negativePrompt,
    ipadapter_weight: String(form.promptAdherence),
    style: String(styleFromWeight(form.styleWeight)),
    ksampler_cfg: String(form.imaginationWeight),
    ksampler_denoise: String(form.similarity),
    use_fixed_seed: form.use_fixed_seed ? 'True' : 'False',
    latent_width: String(form.latent_width),
    latent_height: String(form.latent_height),
    Kseed: String(request.seed),
    seamless: toggle,
    circularVAE: toggle,
    mask: form.mask ? 'enable' : 'disable',
    // Sent only for a series, so that a single image's request is the spec's, field for field.
    ...(form.faces > 1 && { faces: String(form.faces) }),
    ...(form.synthesis !== 'auto' && { synthesis: form.synthesis }),
  };
}

export type GenerationFormErrors = Partial<
  Record<
    | 'positivePrompt'
    | 'negativePrompt'
    | 'imaginationWeight'
    | 'similarity'
    | 'promptAdherence'
    | 'styleWeight'
    | 'batchSize'
    | 'faces'
    | 'outputFormat',
    string
  >
>;

function inRange(value: number, range: NumberRange): boolean {
  // Written as "within" so that NaN (an emptied number input) is out of range.
  return value >= range.min && value <= range.max;
}

/** Field errors of the form, keyed by field; an empty object when it can be submitted. */
export function validateGenerationForm(form: GenerationForm): GenerationFormErrors {
  const errors: GenerationFormErrors = {};
  const prompt = (text: string, requiredMessage: string) => {
    if (text.trim() === '') return requiredMessage;
    if (text.length > PROMPT_MAX_LENGTH) return TEXTS.promptTooLong(PROMPT_MAX_LENGTH);
    return undefined;
  };
  const positive = prompt(form.positivePrompt, TEXTS.positivePromptRequired);
  if (positive) errors.positivePrompt = positive;
  const negative = prompt(form.negativePrompt, TEXTS.negativePromptRequired);
  if (negative) errors.negativePrompt = negative;

  for (const field of [
    'imaginationWeight',
    'similarity',
    'promptAdherence',
    'styleWeight',
  ] as const) {
    const range = GENERATION_RANGES[field];
    if (!inRange(form[field], range)) errors[field] = TEXTS.numberOutOfRange(range.min, range.max);
  }
  const batch = GENERATION_RANGES.batchSize;
  if (!Number.isInteger(form.batchSize) || !inRange(form.batchSize, batch)) {
    errors.batchSize = TEXTS.batchSizeInvalid(batch.min, batch.max);
  }
  const faces = GENERATION_RANGES.faces;
  if (!Number.isInteger(form.faces) || !inRange(form.faces, faces)) {
    errors.faces = TEXTS.facesInvalid(faces.min, faces.max);
  }
  if (!formatBySize(form.latent_width, form.latent_height)) {
    errors.outputFormat = TEXTS.outputFormatInvalid;
  }
  return errors;
}
