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
  use_fixed_seed: boolean;
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
  use_fixed_seed: true,
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
} as const satisfies Record<string, NumberRange>;

/** Stored style (0 to 1) is the form's style weight (0 to 100) divided by 100. */
export function styleFromWeight(weight: number): number {
  return weight / 100;
}

export function weightFromStyle(style: number): number {
  return Math.round(style * 100);
}

/** 10 with a fixed seed, otherwise a random integer in [0, 2^32). */
export function seedFor(useFixedSeed: boolean, random: () => number = Math.random): number {
  if (useFixedSeed) return FIXED_SEED;
  return Math.min(Math.max(Math.floor(random() * SEED_LIMIT), 0), SEED_LIMIT - 1);
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
  })
  .refine((fields) => formatBySize(fields.latent_width, fields.latent_height) !== undefined, {
    message: TEXTS.outputFormatInvalid,
    path: ['latent_width'],
  });

export type PreviewRequestFields = z.input<typeof previewRequestSchema>;
export type PreviewRequest = z.output<typeof previewRequestSchema>;

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
  if (!formatBySize(form.latent_width, form.latent_height)) {
    errors.outputFormat = TEXTS.outputFormatInvalid;
  }
  return errors;
}
