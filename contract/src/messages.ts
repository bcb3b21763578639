// Payloads of the messaging protocol (SPEC §7, DESIGN §3): every command, answer and status.
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants.js';
import { fileNameSchema } from './file-name.js';
import {
  HD_FIXED_FACTORS,
  hdFactorsFor,
  sizeLabelFromFactors,
  type HdSizeLabel,
} from './hd-sizes.js';
import { hdSeedFromMetadata } from './metadata.js';
import { NUMERIC_STRING_PATTERN, toFiniteNumber, toHundredths } from './numbers.js';
import { ldSearchSchema } from './search.js';
import { GENERATION_STATUSES } from './status.js';
import { validateTagName } from './tags.js';
import type { CommandAction } from './topics.js';

export const PAGE_MAX = 1_000_000;
/** Most tag ids one gallery filter may carry. */
export const FILTER_TAGS_MAX = 100;
export const TAG_COLOR_MAX_LENGTH = 64;

const transactionIdSchema = z.string().min(1).max(128);
const userSchema = z.string().min(1).max(64);

/** Fields every request/response command carries. */
export const envelopeSchema = z.object({ transactionid: transactionIdSchema, user: userSchema });
export type CommandEnvelope = z.infer<typeof envelopeSchema>;

export const pageSchema = z.number().int().min(1).max(PAGE_MAX);
export const pageSizeSchema = z.number().int().min(1).max(MAX_PAGE_SIZE);

/** Tag ids are made by the client, so they are held to a plain alphabet (a UUID fits). */
export const tagIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, {
  message: 'Tag id must be 1 to 64 letters, digits, _ or -',
});

/** A tag name by the rules of SPEC §5, stored in NFC so equal-looking names compare equal. */
export const tagNameSchema = z
  .string()
  .superRefine((name, ctx) => {
    // Uniqueness needs the user's tags, so the service checks it; here only the name itself.
    const error = validateTagName(name, []);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  })
  .transform((name) => name.normalize('NFC'));

/**
 * A hex colour (#rgb, #rrggbb or #rrggbbaa). The screen shows no validation message for colours
 * (SPEC T11: the picker only makes hex colours), but the server keeps anything else out: a tag
 * colour becomes CSS, where text such as `url(http://…)` would make every browser fetch it.
 */
export const tagColorSchema = z
  .string()
  .max(TAG_COLOR_MAX_LENGTH)
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, {
    error: 'The colour must be a hex colour such as #a1b2c3',
  });

const pageRequest = { page: pageSchema, size: pageSizeSchema };

export const listLowDefinitionCommandSchema = envelopeSchema.extend({
  ...pageRequest,
  filters: z.object({ tags: z.array(tagIdSchema).max(FILTER_TAGS_MAX).optional() }).optional(),
  /**
   * Beyond SPEC §7 (issue 13): search and sort. Only a command with `search` (even `{}`) gets
   * each image's `starred`, so the spec's payload gets exactly the spec's answer.
   */
  search: ldSearchSchema.optional(),
});
export const deleteLowDefinitionCommandSchema = envelopeSchema.extend({ filename: fileNameSchema });
/** Beyond SPEC §7 (issue 13): stars or unstars one of the user's LD images. */
export const starLowDefinitionCommandSchema = envelopeSchema.extend({
  filename: fileNameSchema,
  starred: z.boolean(),
});
export const listHighDefinitionCommandSchema = envelopeSchema.extend(pageRequest);
export const deleteHighDefinitionCommandSchema = envelopeSchema.extend({
  filename: fileNameSchema,
});
export const listTagCommandSchema = envelopeSchema.extend(pageRequest);
export const createTagCommandSchema = envelopeSchema.extend({
  id: tagIdSchema,
  name: tagNameSchema,
  color: tagColorSchema,
});
export const updateTagCommandSchema = createTagCommandSchema;
export const deleteTagCommandSchema = envelopeSchema.extend({ id: tagIdSchema });
export const assignTagCommandSchema = envelopeSchema.extend({
  id: tagIdSchema,
  filename: fileNameSchema,
});
export const unassignTagCommandSchema = assignTagCommandSchema;
export const refreshLowDefinitionCommandSchema = envelopeSchema;

const numericString = z.string().regex(NUMERIC_STRING_PATTERN, { message: 'Must be a number' });
/** Seeds as digits; 20 digits hold any unsigned 64-bit engine seed. */
const seedString = z.string().regex(/^\d{1,20}$/, { message: 'Must be a whole number' });

function sameToHundredths(text: string, expected: number): boolean {
  const value = toFiniteNumber(text);
  return value !== undefined && toHundredths(value) === toHundredths(expected);
}

/** The HD command: fire-and-forget, no transactionid, every value a string (SPEC §7). */
export const generateImageCommandSchema = z
  .object({
    id: z.string().min(1).max(128),
    user: userSchema,
    image: fileNameSchema,
    rescale_factor_cr711: numericString,
    scale_by_latent707: numericString,
    rescale_factor_cr701: numericString,
    scale_by_image692: numericString,
    use_fixed_seed: z.literal('true'),
    fixed_seed_value: seedString,
    seed: seedString,
  })
  .superRefine((command, ctx) => {
    // Factors outside the table would ask an engine for an arbitrary size, so only sizes pass.
    for (const key of ['rescale_factor_cr711', 'scale_by_latent707'] as const) {
      if (!sameToHundredths(command[key], HD_FIXED_FACTORS[key])) {
        ctx.addIssue({ code: 'custom', path: [key], message: `Must be ${HD_FIXED_FACTORS[key]}` });
      }
    }
    if (sizeLabelFromFactors(command) === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['rescale_factor_cr701'],
        message: 'The factors match no HD size',
      });
    }
  });

export const commandSchemas = {
  'list-low-definition': listLowDefinitionCommandSchema,
  'delete-low-definition': deleteLowDefinitionCommandSchema,
  'list-high-definition': listHighDefinitionCommandSchema,
  'delete-high-definition': deleteHighDefinitionCommandSchema,
  'list-tag': listTagCommandSchema,
  'create-tag': createTagCommandSchema,
  'update-tag': updateTagCommandSchema,
  'delete-tag': deleteTagCommandSchema,
  'assign-tag': assignTagCommandSchema,
  'unassign-tag': unassignTagCommandSchema,
  'refresh-low-definition': refreshLowDefinitionCommandSchema,
  'star-low-definition': starLowDefinitionCommandSchema,
  'generate-image': generateImageCommandSchema,
} as const satisfies Record<CommandAction, z.ZodType>;

/** A command payload after parsing (tag names in NFC). */
export type CommandPayload<A extends CommandAction> = z.output<(typeof commandSchemas)[A]>;
/** A command payload as a client writes it. */
export type CommandInput<A extends CommandAction> = z.input<(typeof commandSchemas)[A]>;

// Answers. Parsed by the app, so they describe the shape rather than police limits.

/** Every answer; a failure has success false and a readable error. Parse this before a list shape. */
export const baseResponseSchema = z.object({
  transactionid: z.string(),
  user: z.string(),
  success: z.boolean(),
  error: z.string().optional(),
});
export type BaseResponse = z.infer<typeof baseResponseSchema>;

const metadataSchema = z.record(z.string(), z.unknown());

export const ldImageSchema = z.object({
  filename: z.string(),
  thumbnail: z.string(),
  metadata: metadataSchema,
  tags: z.array(z.string()),
  /** Present only in answers to a list-low-definition command that had a `search`. */
  starred: z.boolean().optional(),
});
export const hdImageSchema = z.object({
  filename: z.string(),
  thumbnail: z.string(),
  metadata: metadataSchema,
  /**
   * Beyond the spec (issue 29, part 4): when the retention policy removed the HD file (ISO). The
   * thumbnail and metadata stay, and the HD can be ordered again from its LD image.
   */
  removed_by_retention_at: z.string().optional(),
});
export const tagSchema = z.object({ id: z.string(), name: z.string(), color: z.string() });

export type LdImage = z.infer<typeof ldImageSchema>;
export type HdImage = z.infer<typeof hdImageSchema>;
export type Tag = z.infer<typeof tagSchema>;

const pageAnswer = {
  page: z.number().int().min(1),
  size: z.number().int().min(1),
  total: z.number().int().min(0),
};

export const listLowDefinitionResponseSchema = baseResponseSchema.extend({
  ...pageAnswer,
  images: z.array(ldImageSchema),
});
export const listHighDefinitionResponseSchema = baseResponseSchema.extend({
  ...pageAnswer,
  images: z.array(hdImageSchema),
});
export const listTagResponseSchema = baseResponseSchema.extend({
  ...pageAnswer,
  tags: z.array(tagSchema),
});
export const createTagResponseSchema = baseResponseSchema.extend({ id: z.string() });
export const starLowDefinitionResponseSchema = baseResponseSchema.extend({
  filename: z.string(),
  starred: z.boolean(),
});

export type ListLowDefinitionResponse = z.infer<typeof listLowDefinitionResponseSchema>;
export type ListHighDefinitionResponse = z.infer<typeof listHighDefinitionResponseSchema>;
export type ListTagResponse = z.infer<typeof listTagResponseSchema>;
export type CreateTagResponse = z.infer<typeof createTagResponseSchema>;

/** Commands that are answered; generate-image is fire-and-forget. */
export type RequestAction = Exclude<CommandAction, 'generate-image'>;

/** The schema of each answered command's successful answer. */
export const responseSchemas = {
  'list-low-definition': listLowDefinitionResponseSchema,
  'delete-low-definition': baseResponseSchema,
  'list-high-definition': listHighDefinitionResponseSchema,
  'delete-high-definition': baseResponseSchema,
  'list-tag': listTagResponseSchema,
  'create-tag': createTagResponseSchema,
  'update-tag': baseResponseSchema,
  'delete-tag': baseResponseSchema,
  'assign-tag': baseResponseSchema,
  'unassign-tag': baseResponseSchema,
  'refresh-low-definition': baseResponseSchema,
  'star-low-definition': starLowDefinitionResponseSchema,
} as const satisfies Record<RequestAction, z.ZodType>;

export type CommandResponse<A extends RequestAction> = z.infer<(typeof responseSchemas)[A]>;

/** Why an HD id ended with an 'error' status that no retry follows (HdStatusMessage.reason). */
export const HD_STATUS_END_REASONS = ['cancelled', 'already-ordered'] as const;
export type HdStatusEndReason = (typeof HD_STATUS_END_REASONS)[number];

export const hdStatusMessageSchema = z.object({
  id: z.string(),
  image: z.string(),
  status: z.enum(GENERATION_STATUSES),
  percent: z.number().min(0).max(100),
  output_image: z.string().optional(),
  error: z.string().optional(),
  /**
   * Beyond the spec, with status 'error' only: why this id ended without a retry. 'cancelled':
   * the job was cancelled (from the queue page, or its image deleted); 'already-ordered': the
   * same image and size was already on its way under another id, whose messages follow. A
   * client that ignores it still takes the id off its queued list, as for any error.
   */
  reason: z.enum(HD_STATUS_END_REASONS).optional(),
  /**
   * Beyond the spec, with status 'in_progress' only: what the job waits for now, for the user to
   * read (the image storage unreachable, retrying; issue 23, part 11). Absent once it goes on.
   */
  notice: z.string().optional(),
});
export type HdStatusMessage = z.infer<typeof hdStatusMessageSchema>;

/** The generate-image command for an LD image at an HD size, every value a string. */
export function buildHdCommand(request: {
  id: string;
  user: string;
  image: string;
  metadata: Record<string, unknown>;
  sizeLabel: HdSizeLabel;
}): CommandPayload<'generate-image'> {
  const factors = hdFactorsFor(request.sizeLabel);
  if (!factors) throw new RangeError(`Unknown HD size: ${String(request.sizeLabel)}`);
  const seed = hdSeedFromMetadata(request.metadata);
  return {
    id: request.id,
    user: request.user,
    image: request.image,
    rescale_factor_cr711: String(factors.rescale_factor_cr711),
    scale_by_latent707: String(factors.scale_by_latent707),
    rescale_factor_cr701: String(factors.rescale_factor_cr701),
    scale_by_image692: String(factors.scale_by_image692),
    use_fixed_seed: 'true',
    fixed_seed_value: seed,
    seed,
  };
}
