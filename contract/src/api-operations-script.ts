// The OpenAPI table of personal API tokens and of what scripts need that only MQTT offered
// (issue 30, part 1). Shapes are the contract's schemas, never restated here.
import { emptyResponseSchema } from './api-answers.js';
import { BAD_REQUEST, JSON_BODY, json, refusal, type ApiOperation } from './api-operation.js';
import {
  apiTokensResponseSchema,
  createApiTokenRequestSchema,
  createApiTokenResponseSchema,
  revokeApiTokenRequestSchema,
} from './api-tokens.js';
import { hdJobSchema } from './http.js';
import { API_ROUTES } from './routes.js';
import {
  hdListAnswerSchema,
  hdListQuerySchema,
  hdOrderAcceptedSchema,
  hdOrderRequestSchema,
  imageDeletionSchema,
  ldListAnswerSchema,
  ldListQuerySchema,
  starAnswerSchema,
  starRequestSchema,
  tagAssignmentSchema,
  tagCreatedSchema,
  tagFieldsSchema,
  tagIdRequestSchema,
  tagListAnswerSchema,
  tagListQuerySchema,
  whoamiAnswerSchema,
} from './script-api.js';

const NO_STORE = { 'cache-control': 'no-store: the answer changes as the user works.' };
const LIST_REFUSED = refusal('page or size is out of range, or a tag id is malformed.');
const TAG_REFUSED = refusal('No such tag or LD image of this user.');

const SAME_AS_MQTT = 'Same rules and texts as the MQTT command of the same name (SPEC §7).';

/** A change of the user's images or tags: the manage scope, the command's rules. */
function change(
  path: string,
  summary: string,
  body: ApiOperation['body'],
  responses: ApiOperation['responses'],
  description = SAME_AS_MQTT,
): ApiOperation {
  return {
    method: 'POST',
    path,
    tag: 'Images and tags',
    summary,
    description,
    auth: 'session',
    scope: 'manage',
    body,
    responses,
  };
}

function imageDeletion(path: string, summary: string, description: string): ApiOperation {
  return change(
    path,
    summary,
    JSON_BODY(imageDeletionSchema),
    {
      200: json(emptyResponseSchema, 'Deleted: the file, its thumbnail, its row.'),
      400: BAD_REQUEST,
      404: refusal('The user has no image of this name in this gallery.'),
    },
    `${description} ${SAME_AS_MQTT}`,
  );
}

/** A tag's name breaks SPEC §5's rules: the answer is the rule's own text (tags.ts). */
const TAG_FIELDS_REFUSED = refusal(
  "The id, name or colour is malformed; a name against SPEC §5's rules gets that rule's text.",
);

function tagChange(path: string, summary: string): ApiOperation {
  return {
    method: 'POST',
    path,
    tag: 'Images and tags',
    summary,
    description: SAME_AS_MQTT,
    auth: 'session',
    scope: 'manage',
    body: JSON_BODY(tagAssignmentSchema),
    responses: {
      200: json(emptyResponseSchema, 'Done (doing it twice is no error).'),
      400: BAD_REQUEST,
      404: TAG_REFUSED,
    },
  };
}

export const SCRIPT_OPERATIONS: readonly ApiOperation[] = [
  // Personal API tokens: the session cookie only, so a token cannot make or keep tokens.
  {
    method: 'GET',
    path: API_ROUTES.apiTokens,
    tag: 'API tokens',
    summary: "The signed-in user's API tokens, newest first",
    description: 'Never their secrets: a secret is shown once, when the token is made.',
    auth: 'session',
    scope: 'cookie-only',
    responses: { 200: json(apiTokensResponseSchema, 'The tokens.', NO_STORE) },
  },
  {
    method: 'POST',
    path: API_ROUTES.createApiToken,
    tag: 'API tokens',
    summary: 'Make an API token',
    description: 'The answer holds the secret, this once; only its SHA-256 is kept.',
    auth: 'session',
    scope: 'cookie-only',
    body: JSON_BODY(createApiTokenRequestSchema),
    responses: {
      201: json(createApiTokenResponseSchema, 'The token and its secret.', NO_STORE),
      400: refusal('A name, at least one scope and an offered expiry are needed.'),
      409: refusal('The user holds the most tokens one user may have.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.revokeApiToken,
    tag: 'API tokens',
    summary: 'Revoke an API token: it stops working at once',
    auth: 'session',
    scope: 'cookie-only',
    body: JSON_BODY(revokeApiTokenRequestSchema),
    responses: {
      200: json(emptyResponseSchema, 'Revoked.'),
      400: BAD_REQUEST,
      404: refusal('No token of this user has this id.'),
    },
  },

  // The messaging commands' equivalents for scripts (SPEC §7's answers, without the envelope).
  {
    method: 'GET',
    path: API_ROUTES.ldList,
    tag: 'Images and tags',
    summary: "A page of the user's LD images, newest first",
    description: "list-low-definition's answer (SPEC §7).",
    auth: 'session',
    scope: 'read',
    query: ldListQuerySchema,
    responses: { 200: json(ldListAnswerSchema, 'The page.', NO_STORE), 400: LIST_REFUSED },
  },
  {
    method: 'GET',
    path: API_ROUTES.hdList,
    tag: 'Images and tags',
    summary: "A page of the user's HD images, newest first",
    description: "list-high-definition's answer (SPEC §7).",
    auth: 'session',
    scope: 'read',
    query: hdListQuerySchema,
    responses: { 200: json(hdListAnswerSchema, 'The page.', NO_STORE), 400: LIST_REFUSED },
  },
  {
    method: 'GET',
    path: API_ROUTES.tagList,
    tag: 'Images and tags',
    summary: "A page of the user's tags",
    description: "list-tag's answer (SPEC §7).",
    auth: 'session',
    scope: 'read',
    query: tagListQuerySchema,
    responses: { 200: json(tagListAnswerSchema, 'The page.', NO_STORE), 400: LIST_REFUSED },
  },
  tagChange(API_ROUTES.assignTag, 'Put a tag on an LD image'),
  tagChange(API_ROUTES.unassignTag, 'Take a tag off an LD image'),
  change(API_ROUTES.starLd, 'Star or unstar an LD image', JSON_BODY(starRequestSchema), {
    200: json(starAnswerSchema, 'Done: the image and its star (doing it twice is no error).'),
    400: BAD_REQUEST,
    404: refusal('The user has no LD image of this name.'),
  }),
  imageDeletion(
    API_ROUTES.deleteLd,
    'Delete an LD image',
    'Its tags come off, its queued and running HD orders are cancelled and its material maps ' +
      'go; the HD images made from it stay.',
  ),
  imageDeletion(
    API_ROUTES.deleteHd,
    'Delete an HD image',
    'Its print files and material maps go with it; the LD image it was made from stays.',
  ),
  change(API_ROUTES.createTag, 'Make a tag', JSON_BODY(tagFieldsSchema), {
    201: json(tagCreatedSchema, "Made: the tag's id."),
    400: TAG_FIELDS_REFUSED,
    409: refusal(
      'The user has a tag of this id or of this name, or holds the most tags one user may have.',
    ),
  }),
  change(
    API_ROUTES.updateTag,
    'Rename or recolour a tag',
    JSON_BODY(tagFieldsSchema),
    {
      200: json(emptyResponseSchema, 'Saved.'),
      400: TAG_FIELDS_REFUSED,
      404: refusal('The user has no tag of this id.'),
      409: refusal('Another tag of the user has this name.'),
    },
    `Takes both the name and the colour, as the command does (list-tag tells the current ones). ${SAME_AS_MQTT}`,
  ),
  change(API_ROUTES.deleteTag, 'Delete a tag', JSON_BODY(tagIdRequestSchema), {
    200: json(emptyResponseSchema, 'Deleted, and taken off every image that carried it.'),
    400: BAD_REQUEST,
    404: refusal('The user has no tag of this id.'),
  }),
  {
    method: 'POST',
    path: API_ROUTES.hdOrder,
    tag: 'HD queue',
    summary: 'Order the HD image of an LD image at a size',
    description:
      "SPEC §7's generate-image, the size named by its label. Its status follows under its id: " +
      'GET /api/query/hd-jobs/{id} (and over MQTT, as for any order).',
    auth: 'session',
    scope: 'generate',
    body: JSON_BODY(hdOrderRequestSchema),
    responses: {
      202: json(hdOrderAcceptedSchema, 'Queued.'),
      400: refusal('The order is malformed, or the size is not offered for the image.'),
      404: refusal('The user has no LD image of this name.'),
      409: refusal('This image at this size is already on its way under another id.'),
      413: refusal("The user's storage quota is full."),
      429: refusal("The user's HD queue is full."),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.hdJob,
    tag: 'HD queue',
    summary: 'One HD order, by the id it was ordered with',
    auth: 'session',
    scope: 'read',
    responses: {
      200: json(hdJobSchema, 'Its status; output_image once finished.', NO_STORE),
      404: refusal('No HD job of this user has this id.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.whoami,
    tag: 'API tokens',
    summary: 'Who the caller is: the user, and the API token it carries',
    description:
      "With an API token: its owner's name and role, and the token's id, name, scopes and " +
      'expiry (never its secret), so a script can check its token before it starts. With the ' +
      'session cookie: the user, and token null.',
    auth: 'session',
    scope: 'read',
    responses: { 200: json(whoamiAnswerSchema, 'The caller.', NO_STORE) },
  },
];
