// Every refusal the server sends a person, written once under a stable code. The texts are what
// the answer's `error` field carries (HTTP and messaging alike); the codes name them in the code
// and the tests, so a text can be reworded without hunting for its copies.
import { MAX_COMMAND_BYTES } from './constants.js';
import { MATERIAL_HEIGHT_STRENGTH_RANGE } from './material-maps.js';
import { REFERENCE_ERROR_TEXTS_EN } from './reference-analysis.js';
import { TEXTS } from './texts.js';

type ErrorText = string | ((...args: never[]) => string);

/**
 * Each refusal's text under its code, in English: the server answers with these (clients and
 * scripts read them). The web shows them in Spanish through their twins (errors-es.ts).
 */
export const SERVER_ERROR_TEXTS = {
  // Any route
  NOT_SIGNED_IN: 'Not signed in',
  NOT_FOUND: 'Not found',
  INTERNAL: 'Internal server error',
  /** A state-changing request sent by a page of another origin (issue 22, part 1). */
  CROSS_ORIGIN_REQUEST:
    'This request came from a page outside Tessera and was refused. Use Tessera itself to make this change.',
  /** GET /metrics without METRICS_TOKEN as `Authorization: Bearer <token>`. */
  METRICS_TOKEN_REQUIRED: 'The metrics need the bearer token METRICS_TOKEN sets',
  /** The server's disk (or the user's quota on it) is full: nothing could be written. */
  DISK_FULL: 'The server has no disk space left. Try again later.',
  /** An image the server had to read is damaged or incomplete. */
  IMAGE_UNREADABLE: 'The image could not be read: it is damaged or incomplete',
  /**
   * The object store (FILES_URL) does not answer: a download or change refused for now, or a
   * job that waited through the whole retry window (issue 23, part 11).
   */
  FILE_STORE_UNREACHABLE:
    'The image storage cannot be reached right now. Try again in a few minutes.',
  /** While a job waits for the object store to answer again: its status says so. */
  FILE_STORE_RETRYING:
    'The image storage cannot be reached right now; Tessera keeps trying and the job goes on when it answers.',
  /** A job failed for a reason the server keeps to its log. */
  JOB_FAILED: 'The image could not be made because of a problem on the server',

  // Signing in
  LOGIN_FIELDS_MISSING: 'Enter a username and a password',
  INVALID_CREDENTIALS: 'Invalid username or password',
  TOO_MANY_SIGN_INS: (seconds: number) =>
    `Too many sign-in attempts. Try again in ${seconds} seconds.`,

  /** A correct password of a user an admin disabled (issue 29). */
  ACCOUNT_DISABLED: 'This account is disabled. Ask an administrator.',

  // API tokens (issue 30, part 1)
  /** A Bearer token that is unknown, expired or revoked, or whose user may not sign in. */
  API_TOKEN_INVALID: 'This API token is not valid: it is unknown, expired or revoked',
  /** A Bearer token on a route that takes the browser's session only (docs/api.md). */
  API_TOKEN_NOT_ACCEPTED:
    "This call needs the browser's session: an API token cannot be used for it",
  API_TOKEN_SCOPE_MISSING: (scope: string) =>
    `This API token lacks the '${scope}' permission this call needs`,
  API_TOKEN_REQUEST_INVALID:
    'A token needs a name of 1 to 64 characters, at least one permission (read, generate or manage) and an expiry of 30, 90 or 365 days, or none',
  API_TOKEN_LIMIT_REACHED: (limit: number) =>
    `You already have ${limit} API tokens, the most one user may have. Revoke one to create another.`,
  API_TOKEN_UNKNOWN: 'No API token of yours has this id',
  /** The HTTP equivalents of the messaging commands (issue 30, part 1). */
  LIST_REQUEST_INVALID: (max: number) =>
    `page must be a whole number from 1, and size one from 1 to ${max}`,
  TAG_REQUEST_INVALID: 'The request needs a tag id and an image file name',
  HD_ORDER_INVALID:
    'An HD order needs an id, the file name of one of your LD images and one of the HD sizes (such as 30x30)',
  STAR_REQUEST_INVALID:
    'The request needs the file name of one of your LD images and starred, true or false',
  IMAGE_REQUEST_INVALID: "The request needs the image's file name",
  /** A tag's fields other than its name (whose rules have their own texts: tags.ts). */
  TAG_FIELDS_INVALID:
    'A tag needs an id of 1 to 64 letters, digits, _ or -, a name and a hex colour such as #a1b2c3',
  TAG_ID_INVALID: "The request needs the tag's id: 1 to 64 letters, digits, _ or -",

  // Administration (issue 29): the admin API and `npm run users` alike
  ADMIN_ONLY: 'Only an administrator may do this',
  ADMIN_REQUEST_INVALID: 'The request is not valid for this administrator action',
  USERNAME_INVALID: (username: string) =>
    `'${username}' is not a valid username: use 1 to 64 letters, digits, '_', '.' or '-'`,
  USER_EXISTS: (username: string) => `User '${username}' already exists`,
  USER_UNKNOWN: (username: string) => `No user '${username}'`,
  USER_RETIRED: (username: string) =>
    `'${username}' was removed with their images kept: the account cannot be used again`,
  PASSWORD_TOO_SHORT: (min: number) => `The password must have at least ${min} characters`,
  PASSWORD_TOO_LONG: (max: number) => `The password must have at most ${max} characters`,
  PASSWORDS_DIFFER: 'The passwords do not match',
  LAST_ADMIN: (username: string) =>
    `'${username}' is the last enabled administrator: make another user an administrator first`,
  USER_NOT_RETIRED: (username: string) =>
    `'${username}' still has an account: remove them keeping their images before taking them over`,
  TAKE_OVER_NOT_ADMIN: (username: string) =>
    `'${username}' is not an enabled administrator: only one may take over images`,
  /** A storage, preview or HD quota the admin form sent is not a valid value. */
  QUOTA_INVALID: 'A quota must be empty (the default) or a whole number within its range',
  ROLE_UNKNOWN: (role: string) => `'${role}' is not a role: use admin or member`,
  RETENTION_OFF: 'There is no HD retention policy: set HD_RETENTION_DAYS to remove old HD files',
  /** The change is saved, but an external broker could not be told (the log says why). */
  BROKER_NOT_UPDATED:
    'Saved, but the message broker could not be updated: the next server start brings it in line',

  // Preview jobs (SPEC §7)
  UPLOAD_MISSING: 'No image was uploaded',
  UPLOAD_TOO_LARGE: TEXTS.uploadTooLarge,
  FORM_USER_MISMATCH: "The form's user is not the signed-in user",
  FORM_MALFORMED: 'The form could not be read: it is not a complete multipart/form-data body',
  JOB_ID_TAKEN: 'A job with this id is already queued or running',
  NO_GENERATION_YET: 'No generation yet',
  /** The per-user queue limit (beyond the spec), shown as the failure's text. */
  PREVIEW_QUEUE_FULL: (limit: number) =>
    `You already have ${limit} previews waiting. Wait for them to finish before starting more.`,

  /** An upload, a preview or an HD order past the user's storage quota (issue 29, part 3). */
  // The quota comes written (formatQuotaBytes(bytes, 'en')): the web reads it back for its twin.
  STORAGE_QUOTA_EXCEEDED: (quota: string) =>
    `Your storage quota of ${quota} is full. Delete some images or ask an administrator for more space.`,

  // HD orders and the HD queue
  /** An HD or material-maps order names an image the user does not have. */
  ORDERED_IMAGE_NOT_FOUND: (image: string) => `The image '${image}' was not found`,
  HD_SIZE_NOT_OFFERED: (size: string) => `The size ${size} is not offered for this image's format`,
  /** The image a job or a download works from was deleted meanwhile. */
  IMAGE_GONE: (image: string) => `The image '${image}' no longer exists`,
  HD_WRONG_SIZE: 'The engine wrote an image of the wrong size',
  /**
   * The builtin engine's ESRGAN upscaler has no runtime that loads on this server (onnxruntime's
   * library does not, and its fallback is not installed); the log says why.
   */
  HD_UPSCALER_UNAVAILABLE:
    'HD images cannot be made on this server: its upscaler does not run here. Tell the administrator.',
  HD_QUEUE_FULL: (limit: number) =>
    `You already have ${limit} HD images waiting. Wait for some to finish before ordering more.`,
  HD_JOB_NOT_QUEUED: 'Only a queued job can be cancelled',
  HD_JOB_NOT_QUEUED_TO_MOVE: 'Only a queued job can be moved',
  HD_JOB_UNKNOWN: 'No such job',
  HD_JOB_ID_MISSING: 'The request needs the job id',
  /** The error text of an HD status message for a job that was cancelled. */
  HD_JOB_CANCELLED: 'The HD job was cancelled',
  /** The error text for a second order of an image and size whose job is still live. */
  HD_ALREADY_ORDERED: (image: string, size: string) =>
    `An HD image of '${image}' at ${size} is already on its way`,

  // Material maps (issue 17)
  MAPS_REQUEST_INVALID: `The request needs the gallery ('ld' or 'hd') and the image's file name`,
  MAPS_QUEUE_FULL: (limit: number) => `At most ${limit} material map jobs may wait at once`,
  /** The order's `height` is not heightSettingsSchema (issue 26, part 4). */
  MAPS_HEIGHT_INVALID: `The height needs 'invert' (true or false) and a strength from ${MATERIAL_HEIGHT_STRENGTH_RANGE.min} to ${MATERIAL_HEIGHT_STRENGTH_RANGE.max} in steps of ${MATERIAL_HEIGHT_STRENGTH_RANGE.step}`,
  /** An order with other height settings while the image's maps are being made. */
  MAPS_HEIGHT_BUSY:
    'The maps of this image are being made with other height settings. Remake them once they are done.',

  // Print files (issue 26, part 1)
  PRINT_REQUEST_INVALID:
    'The print file needs the HD image, a resolution from 72 to 1200 dpi, a bleed from 0 to 20 mm in steps of 0.5, LZW or Deflate, 8 or 16 bits and a colour profile',
  PRINT_PROFILE_UNKNOWN: (profile: string) =>
    `The colour profile '${profile}' is not installed on this server`,
  PRINT_QUEUE_FULL: (limit: number) =>
    `You already have ${limit} print files being made. Wait for one to finish before ordering more.`,
  PRINT_ALREADY_ORDERED: 'A print file of this image with these settings is already on its way',

  // Material packages (issue 26, part 3)
  MATERIAL_PACKAGE_REQUEST_INVALID: `The material package needs the gallery ('ld' or 'hd'), the image's file name and a preset (standard, unreal or unity-hdrp)`,
  MATERIAL_PACKAGE_NO_MAPS: 'Make the material maps first: the package is made from them',

  // References that cannot work (issue 27, part 5)
  /** More reference checks or lighting removals at once than the server runs for one user. */
  REFERENCE_CHECKS_BUSY: REFERENCE_ERROR_TEXTS_EN.busy,

  // Images and tags (messaging commands)
  IMAGE_NOT_FOUND: (filename: string) => `Image '${filename}' not found`,
  TAG_NOT_FOUND: (id: string) => `Tag '${id}' not found`,
  TAG_ID_TAKEN: (id: string) => `A tag with the id '${id}' already exists`,
  TAG_NAME_TAKEN: TEXTS.tagDuplicate,
  /** The per-user tag cap (beyond the spec: MAX_TAGS_PER_USER). */
  TAG_LIMIT_REACHED: (limit: number) =>
    `You already have ${limit} tags, the most one user may have. Delete a tag to create another.`,

  // Messaging
  COMMAND_MALFORMED: 'The command is not valid JSON',
  COMMAND_TOO_LARGE: `The command is larger than ${MAX_COMMAND_BYTES} bytes`,
  COMMANDS_TOO_FAST: 'Too many commands at once; try again in a moment',
  COMMAND_USER_MISMATCH: "The payload's user does not match the topic",
  UNKNOWN_ACTION: (action: string) => `Unknown action '${action}'`,
  UNKNOWN_USER: 'Unknown user',
  COMMAND_FAILED: 'The command failed on the server',

  // ZIP downloads
  ZIP_REQUEST_INVALID: `The request needs the gallery ('ld' or 'hd') and the images' file names`,
  ZIP_UNKNOWN_TOKEN: 'No such download',
  ZIP_UNKNOWN_IMAGE: (name: string) => `No such image: ${name}`,
  ZIP_TOO_MANY: 'Too many ZIP downloads at once: wait until one has finished',
  ZIP_EXPIRED: 'This download has expired or was already used: start it again',
  ZIP_INTERRUPTED: 'The download stopped before the end',
  ZIP_READ_FAILED: 'An image could not be read: the download stopped',
} as const satisfies Record<string, ErrorText>;

export type ServerErrorCode = keyof typeof SERVER_ERROR_TEXTS;

/** What a coded text needs to be written out: nothing, or the values it names. */
export type ServerErrorArgs<C extends ServerErrorCode> = (typeof SERVER_ERROR_TEXTS)[C] extends (
  ...args: infer A
) => string
  ? A
  : [];

/** One refusal as the table holds it: its code and its text (a function when it names values). */
export interface ServerErrorEntry<C extends ServerErrorCode = ServerErrorCode> {
  readonly code: C;
  readonly text: (typeof SERVER_ERROR_TEXTS)[C];
}

/** The table: each refusal under its code, e.g. SERVER_ERRORS.TAG_NAME_TAKEN.text('Stone'). */
export const SERVER_ERRORS = Object.fromEntries(
  Object.entries(SERVER_ERROR_TEXTS).map(([code, text]) => [code, { code, text }]),
) as { readonly [C in ServerErrorCode]: ServerErrorEntry<C> };

/** A refusal written out: its code, and the text the answer's `error` field carries. */
export interface ServerError<C extends ServerErrorCode = ServerErrorCode> {
  readonly code: C;
  readonly text: string;
}

export function serverError<C extends ServerErrorCode>(
  code: C,
  ...args: ServerErrorArgs<C>
): ServerError<C> {
  const text: ErrorText = SERVER_ERROR_TEXTS[code];
  return {
    code,
    text: typeof text === 'function' ? (text as (...values: unknown[]) => string)(...args) : text,
  };
}

/** The text of a refusal, as the answer's `error` field carries it. */
export function errorText<C extends ServerErrorCode>(code: C, ...args: ServerErrorArgs<C>): string {
  return serverError(code, ...args).text;
}
