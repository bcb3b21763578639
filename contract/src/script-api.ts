// The HTTP equivalents of what only the messaging commands offered (issue 30, part 1), for
// scripts with an API token: the same fields and answers as SPEC §7's commands, without the
// envelope (the user is the caller, and HTTP pairs request and answer itself).
import { z } from 'zod';
import { IMAGE_PAGE_SIZE, MAX_PAGE_SIZE, TAG_PAGE_SIZE } from './constants.js';
import { fileNameSchema } from './file-name.js';
import { HD_SIZES, type HdSizeLabel } from './hd-sizes.js';
import {
  FILTER_TAGS_MAX,
  PAGE_MAX,
  listHighDefinitionResponseSchema,
  listLowDefinitionResponseSchema,
  listTagResponseSchema,
  tagIdSchema,
} from './messages.js';

const ENVELOPE = { transactionid: true, user: true, success: true, error: true } as const;

/** A page of a query string, 1-based, as the commands' `page` and `size`. */
function pageQuery(defaultSize: number) {
  return {
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1).describe('1-based page.'),
    size: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .default(defaultSize)
      .describe(`Items per page (1 to ${MAX_PAGE_SIZE}; ${defaultSize} if absent).`),
  };
}

/** GET list-high-definition's query; SPEC §9 pages the galleries by 100. */
export const hdListQuerySchema = z.object(pageQuery(IMAGE_PAGE_SIZE));

/** GET list-low-definition's query: `tags`, comma-separated tag ids, keeps images with any. */
export const ldListQuerySchema = z.object({
  ...pageQuery(IMAGE_PAGE_SIZE),
  tags: z
    .string()
    .optional()
    .describe('Comma-separated tag ids: images carrying any of them (SPEC §7 filters.tags).')
    .transform((text) => (text ? text.split(',').filter((id) => id !== '') : undefined))
    .pipe(z.array(tagIdSchema).max(FILTER_TAGS_MAX).optional()),
});

/** GET list-tag's query; SPEC §9 pages tags by 10. */
export const tagListQuerySchema = z.object(pageQuery(TAG_PAGE_SIZE));

export const ldListAnswerSchema = listLowDefinitionResponseSchema.omit(ENVELOPE);
export const hdListAnswerSchema = listHighDefinitionResponseSchema.omit(ENVELOPE);
export const tagListAnswerSchema = listTagResponseSchema.omit(ENVELOPE);
export type LdListAnswer = z.infer<typeof ldListAnswerSchema>;
export type HdListAnswer = z.infer<typeof hdListAnswerSchema>;
export type TagListAnswer = z.infer<typeof tagListAnswerSchema>;

/** POST assign-tag and unassign-tag: the tag's id and the LD image's file name. */
export const tagAssignmentSchema = z.object({ id: tagIdSchema, filename: fileNameSchema });
export type TagAssignment = z.infer<typeof tagAssignmentSchema>;

const HD_SIZE_LABELS = HD_SIZES.map((size) => size.label) as [HdSizeLabel, ...HdSizeLabel[]];

/**
 * POST generate-image over HTTP: the order of SPEC §7's command, with the size named by its
 * label instead of its four factors (the server takes them, and the seed, as the app does).
 */
export const hdOrderRequestSchema = z.object({
  /** The order's id: its status is read by it (GET /api/query/hd-jobs/{id}). */
  id: z.string().min(1).max(128),
  /** One of the user's LD images. */
  image: fileNameSchema,
  size: z.enum(HD_SIZE_LABELS).describe("An HD size offered for the image's format (SPEC §3)."),
});
export type HdOrderRequest = z.infer<typeof hdOrderRequestSchema>;

export const hdOrderAcceptedSchema = z.object({ id: z.string(), status: z.literal('queued') });
export type HdOrderAccepted = z.infer<typeof hdOrderAcceptedSchema>;
