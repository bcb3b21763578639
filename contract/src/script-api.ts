// The HTTP equivalents of what only the messaging commands offered (issue 30, part 1), for
// scripts with an API token: the same fields and answers as SPEC §7's commands, without the
// envelope (the user is the caller, and HTTP pairs request and answer itself).
import { z } from 'zod';
import { IMAGE_PAGE_SIZE, MAX_PAGE_SIZE, TAG_PAGE_SIZE } from './constants.js';
import { fileNameSchema } from './file-name.js';
import { HD_SIZES, type HdSizeLabel } from './hd-sizes.js';
import { userRoleSchema } from './admin.js';
import { apiTokenSchema } from './api-tokens.js';
import {
  FILTER_TAGS_MAX,
  PAGE_MAX,
  createTagCommandSchema,
  createTagResponseSchema,
  deleteLowDefinitionCommandSchema,
  deleteTagCommandSchema,
  listHighDefinitionResponseSchema,
  listLowDefinitionResponseSchema,
  listTagResponseSchema,
  starLowDefinitionCommandSchema,
  starLowDefinitionResponseSchema,
  tagIdSchema,
} from './messages.js';

const ENVELOPE = { transactionid: true, user: true, success: true, error: true } as const;
const REQUEST_ENVELOPE = { transactionid: true, user: true } as const;

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

/** POST star-low-definition: one of the user's LD images, starred or not (issue 13). */
export const starRequestSchema = starLowDefinitionCommandSchema.omit(REQUEST_ENVELOPE);
export type StarRequest = z.infer<typeof starRequestSchema>;
export const starAnswerSchema = starLowDefinitionResponseSchema.omit(ENVELOPE);

/** POST delete-low-definition and delete-high-definition: the image's file name. */
export const imageDeletionSchema = deleteLowDefinitionCommandSchema.omit(REQUEST_ENVELOPE);
export type ImageDeletion = z.infer<typeof imageDeletionSchema>;

/**
 * POST create-tag and update-tag: the id (the client's, SPEC §3), a name by SPEC §5's rules
 * (their texts: tags.ts) and a hex colour. update-tag renames and recolours, so it takes both.
 */
export const tagFieldsSchema = createTagCommandSchema.omit(REQUEST_ENVELOPE);
export type TagFields = z.input<typeof tagFieldsSchema>;
export const tagCreatedSchema = createTagResponseSchema.omit(ENVELOPE);

/** POST delete-tag: the tag's id. */
export const tagIdRequestSchema = deleteTagCommandSchema.omit(REQUEST_ENVELOPE);

/**
 * GET whoami: who the caller acts as. With an API token, the token itself (never its secret);
 * with the browser's session cookie, `token` is null: the session may do all its user may.
 */
export const whoamiAnswerSchema = z.object({
  username: z.string(),
  role: userRoleSchema,
  token: apiTokenSchema
    .pick({ id: true, name: true, scopes: true, expires_at: true })
    .nullable()
    .describe('The API token the request carried; null for the session cookie.'),
});
export type WhoamiAnswer = z.infer<typeof whoamiAnswerSchema>;
