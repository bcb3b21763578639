// The paths of the HTTP API (SPEC §7 and beyond), written once: the server registers these
// templates with Fastify, the app and the tests build URLs from them.

/** Every route as the server registers it; `:name` marks a path parameter. */
export const API_ROUTES = {
  // What the app reads before anything else (SPEC §1), and the health check.
  title: '/api/title',
  theme: '/api/theme',
  brokerUrl: '/api/mosquitto/url',
  health: '/api/health',
  /** GET: the OpenAPI 3.1 document of this API (contract/src/openapi.ts), public. */
  openApi: '/api/openapi.json',
  /** GET: the same document as a readable page. */
  apiDocs: '/api/docs',
  /** 200 while the process can serve (database, broker, file store reachable); 503 otherwise. */
  ready: '/api/ready',

  // Sign in, sign out, and who is signed in.
  login: '/api/login',
  logout: '/api/logout',
  session: '/api/session',

  // Single sign-on with OpenID Connect (issue 30, part 4; contract/src/sso.ts).
  /** GET → ssoConfigResponseSchema, public: whether the login page offers it, and its name. */
  ssoConfig: '/api/sso',
  /** GET: redirects the browser to the identity provider (authorization code, PKCE). */
  ssoStart: '/api/sso/start',
  /** GET: the provider's redirect back; sets the session cookie and redirects to the app. */
  ssoCallback: '/api/sso/callback',
  /** GET → ssoMessagingSecretResponseSchema: a single sign-on session's messaging login. */
  ssoMessagingSecret: '/api/sso/messaging-secret',

  // Generation (SPEC §7): a preview job (multipart), the latest preview and HD status.
  generatePreview: '/api/command/generate-image/preview',
  previewStatus: '/api/query/status-generate-image/preview',
  hdStatus: '/api/query/status-generate-image',

  // Beyond the spec (issue 27): what the Generate screen says depends on the preview engine.
  /** GET → engineInfoResponseSchema: the engine this server makes previews with. */
  engineInfo: '/api/query/engine',

  // Beyond the spec: the references library (/input).
  /** GET: the user's uploaded references, newest first (inputsResponseSchema). */
  inputs: '/api/query/inputs',

  // Beyond the spec: the user's own storage and quota, for the sidebar (issue 29, part 3).
  /** GET → storageUsageSchema. */
  storageUsage: '/api/query/storage-usage',

  // Beyond the spec: the HD queue page (/upscale).
  /** GET: the user's HD jobs and whether their queue is paused (hdJobsResponseSchema). */
  hdJobs: '/api/query/hd-jobs',
  /** POST { id }: cancels a queued job; 409 once it runs or ended. */
  cancelHdJob: '/api/command/cancel-hd-job',
  /** POST { id }: the queued job runs next among the user's jobs; answers the queue. */
  moveHdJobToTop: '/api/command/move-hd-job-to-top',
  /** POST: none of the user's queued jobs starts until resumed (a running one finishes). */
  pauseHdQueue: '/api/command/pause-hd-queue',
  /** POST: the user's queued jobs run again. */
  resumeHdQueue: '/api/command/resume-hd-queue',

  // Beyond the spec: a selection of images as one ZIP (issue 13, feature 10).
  /** POST zipDownloadRequestSchema → zipDownloadTicketSchema: checks the selection, once. */
  zipCreate: '/api/command/zip-download',
  /** GET: the ZIP itself, once, as an attachment with its exact Content-Length. */
  zipFile: '/api/images/zip/:token',
  /** GET → zipDownloadProgressSchema: how far the server has sent the ZIP. */
  zipProgress: '/api/query/zip-download/:token',

  // Beyond the spec: PBR material maps of an image (issue 17, part 5).
  /** POST materialMapsRequestSchema → materialMapsStatusSchema: orders the maps (202). */
  materialMapsOrder: '/api/command/material-maps',
  /** GET ?kind=&image= → materialMapsStatusSchema: the maps made and the latest job. */
  materialMapsStatus: '/api/query/material-maps',

  // Beyond the spec: print files of an HD image (issue 26, part 1).
  /** GET → printProfilesResponseSchema: sRGB and the operator's ICC profiles. */
  printProfiles: '/api/query/print-profiles',
  /** GET printEstimateQuerySchema → printEstimateSchema: the file's pixels and bytes before. */
  printEstimate: '/api/query/print-estimate',
  /** POST printOrderSchema → printFileSchema (202): orders a print file as a job. */
  printOrder: '/api/command/print-file',
  /** GET ?image= → printFilesResponseSchema: the HD image's print files and their jobs. */
  printFiles: '/api/query/print-files',

  // Beyond the spec: references that cannot work (issue 27, part 5).
  /** POST multipart `image` → referenceAnalysisSchema: the reference checked, nothing stored. */
  referenceAnalysis: '/api/command/reference-analysis',
  /** POST multipart `image` → image/png: the reference with its lighting drift taken out. */
  referenceDelight: '/api/command/reference-delight',

  // Personal API tokens (issue 30, part 1): managed with the session cookie only.
  /** GET → apiTokensResponseSchema: the user's tokens, never their secrets. */
  apiTokens: '/api/query/api-tokens',
  /** POST createApiTokenRequestSchema → createApiTokenResponseSchema (201): the secret, once. */
  createApiToken: '/api/command/create-api-token',
  /** POST revokeApiTokenRequestSchema: the token stops working at once. */
  revokeApiToken: '/api/command/revoke-api-token',

  // What scripts need that only MQTT offered (issue 30, part 1), same rules as the commands.
  /** GET ldListQuerySchema → ldListAnswerSchema: list-low-definition's answer. */
  ldList: '/api/query/list-low-definition',
  /** GET pageQuerySchema → hdListAnswerSchema: list-high-definition's answer. */
  hdList: '/api/query/list-high-definition',
  /** GET pageQuerySchema → tagListAnswerSchema: list-tag's answer. */
  tagList: '/api/query/list-tag',
  /** POST tagAssignmentSchema: assign-tag. */
  assignTag: '/api/command/assign-tag',
  /** POST tagAssignmentSchema: unassign-tag. */
  unassignTag: '/api/command/unassign-tag',
  /** POST hdOrderRequestSchema → hdOrderAcceptedSchema (202): generate-image, with a size label. */
  hdOrder: '/api/command/generate-image',
  /** GET → hdJobSchema: one HD order by the id it was given. */
  hdJob: '/api/query/hd-jobs/:id',
  /** POST starRequestSchema → starAnswerSchema: star-low-definition. */
  starLd: '/api/command/star-low-definition',
  /** POST imageDeletionSchema: delete-low-definition, with its HD orders and material maps. */
  deleteLd: '/api/command/delete-low-definition',
  /** POST imageDeletionSchema: delete-high-definition. */
  deleteHd: '/api/command/delete-high-definition',
  /** POST tagFieldsSchema → tagCreatedSchema (201): create-tag. */
  createTag: '/api/command/create-tag',
  /** POST tagFieldsSchema: update-tag (rename, recolour). */
  updateTag: '/api/command/update-tag',
  /** POST tagIdRequestSchema: delete-tag, taken off every image first. */
  deleteTag: '/api/command/delete-tag',
  /** GET → whoamiAnswerSchema: the caller's user and, for a Bearer request, its token. */
  whoami: '/api/query/whoami',

  // The user's image files (SPEC §7), to their owner only.
  /** A print file (issue 26): the TIFF, as an attachment. */
  printFile: '/api/images/print/:filename',
  /** A material package (issue 26, part 3): GET materialPackageQuerySchema → the ZIP. */
  materialPackage: '/api/images/material-package',
  /** Material maps (issue 17): one map file, as an attachment. */
  mapImage: '/api/images/maps/:filename',
  ldImage: '/api/images/ld/:filename',
  ldThumbnail: '/api/images/ld/thumbnail/:filename',
  hdImage: '/api/images/hd/:filename',
  hdThumbnail: '/api/images/hd/thumbnail/:filename',
  inputImage: '/api/images/input/:filename',

  // The administrator's API (issue 29, admin.ts): 401 without a session, 403 for a member.
  /** GET → adminUsersResponseSchema; POST adminCreateUserRequestSchema → adminPasswordResponseSchema. */
  adminUsers: '/api/admin/users',
  /** POST adminPasswordRequestSchema → adminPasswordResponseSchema: ends their sessions. */
  adminUserPassword: '/api/admin/users/:username/password',
  /** POST adminRoleRequestSchema → adminUserResponseSchema. */
  adminUserRole: '/api/admin/users/:username/role',
  /** POST → adminUserResponseSchema: no sign-in, no broker connection; data kept. */
  adminUserDisable: '/api/admin/users/:username/disable',
  /** POST → adminUserResponseSchema. */
  adminUserEnable: '/api/admin/users/:username/enable',
  /** POST adminRemoveRequestSchema → adminRemoveResponseSchema. */
  adminUserRemove: '/api/admin/users/:username/remove',
  /** POST → adminTakeOverResponseSchema: a retired user's images become the admin's. */
  adminUserTakeOver: '/api/admin/users/:username/take-over',
  /** GET → quotaDefaultsResponseSchema; PUT quotaDefaultsSchema → the same (issue 29, part 3). */
  adminQuotaDefaults: '/api/admin/quotas',
  /** PUT userQuotasSchema → adminUserResponseSchema: each null follows the default. */
  adminUserQuotas: '/api/admin/users/:username/quotas',
  /** GET auditQuerySchema → auditPageSchema: newest first. */
  adminAudit: '/api/admin/audit',
  /** GET → adminRetentionSchema: the HD retention policy, its dry run now, the daily runs. */
  adminRetention: '/api/admin/retention',
  /** POST → adminRetentionRunSchema: runs the policy now; 409 RETENTION_OFF without one. */
  adminRetentionRun: '/api/admin/retention/run',
  /** GET → adminUsageSchema: images made per day and per user, the queue, the engines' state. */
  adminUsage: '/api/admin/usage',

  // Webhooks (issue 30, part 3; webhooks.ts): a user's endpoints, or an admin's for everyone.
  /** GET webhookListQuerySchema → webhookListSchema; POST webhookCreateSchema → webhookCreatedSchema. */
  webhooks: '/api/webhooks',
  /** PUT webhookUpdateSchema → webhookEndpointSchema. */
  webhook: '/api/webhooks/:id',
  /** POST: removes the endpoint and its deliveries (204). */
  webhookRemove: '/api/webhooks/:id/remove',
  /** POST → webhookDeliverySchema (202): queues a `webhook.test` event to this endpoint. */
  webhookTest: '/api/webhooks/:id/test',
  /** GET → webhookDeliveriesSchema: the endpoint's latest deliveries, newest first. */
  webhookDeliveries: '/api/webhooks/:id/deliveries',
  /** POST → webhookDeliverySchema: the delivery goes again now (same webhook-id). */
  webhookResend: '/api/webhooks/:id/deliveries/:delivery/resend',
  /** POST → webhookRotatedSchema: a new signing secret; the old one signs too for a grace period. */
  webhookRotateSecret: '/api/webhooks/:id/rotate-secret',
} as const;

export type ApiRoute = (typeof API_ROUTES)[keyof typeof API_ROUTES];

/**
 * Every route that changes something, as the server registers it: what no page of another origin
 * may send (issue 22, part 1). The server's tests hold it to the routes its app registers.
 */
export const STATE_CHANGING_ROUTES = [
  { method: 'POST', path: API_ROUTES.login },
  { method: 'POST', path: API_ROUTES.logout },
  { method: 'POST', path: API_ROUTES.generatePreview },
  { method: 'POST', path: API_ROUTES.cancelHdJob },
  { method: 'POST', path: API_ROUTES.moveHdJobToTop },
  { method: 'POST', path: API_ROUTES.pauseHdQueue },
  { method: 'POST', path: API_ROUTES.resumeHdQueue },
  { method: 'POST', path: API_ROUTES.zipCreate },
  { method: 'POST', path: API_ROUTES.materialMapsOrder },
  { method: 'POST', path: API_ROUTES.printOrder },
  // They store nothing, but cost a worker's time: no page of another origin may spend it.
  { method: 'POST', path: API_ROUTES.referenceAnalysis },
  { method: 'POST', path: API_ROUTES.referenceDelight },
  { method: 'POST', path: API_ROUTES.createApiToken },
  { method: 'POST', path: API_ROUTES.revokeApiToken },
  { method: 'POST', path: API_ROUTES.assignTag },
  { method: 'POST', path: API_ROUTES.unassignTag },
  { method: 'POST', path: API_ROUTES.hdOrder },
  { method: 'POST', path: API_ROUTES.starLd },
  { method: 'POST', path: API_ROUTES.deleteLd },
  { method: 'POST', path: API_ROUTES.deleteHd },
  { method: 'POST', path: API_ROUTES.createTag },
  { method: 'POST', path: API_ROUTES.updateTag },
  { method: 'POST', path: API_ROUTES.deleteTag },
  { method: 'POST', path: API_ROUTES.adminUsers },
  { method: 'POST', path: API_ROUTES.adminUserPassword },
  { method: 'POST', path: API_ROUTES.adminUserRole },
  { method: 'POST', path: API_ROUTES.adminUserDisable },
  { method: 'POST', path: API_ROUTES.adminUserEnable },
  { method: 'POST', path: API_ROUTES.adminUserRemove },
  { method: 'POST', path: API_ROUTES.adminUserTakeOver },
  { method: 'POST', path: API_ROUTES.adminRetentionRun },
  { method: 'PUT', path: API_ROUTES.adminQuotaDefaults },
  { method: 'PUT', path: API_ROUTES.adminUserQuotas },
  { method: 'POST', path: API_ROUTES.webhooks },
  { method: 'PUT', path: API_ROUTES.webhook },
  { method: 'POST', path: API_ROUTES.webhookRemove },
  { method: 'POST', path: API_ROUTES.webhookTest },
  { method: 'POST', path: API_ROUTES.webhookResend },
  { method: 'POST', path: API_ROUTES.webhookRotateSecret },
] as const satisfies readonly { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: ApiRoute }[];

/**
 * The app's screens (SPEC §2, checklist R1): where the router mounts each one, and where the
 * sidebar, the links and the tests go. Login is the root; every other screen is behind the session.
 */
export const SCREEN_PATHS = {
  login: '/',
  dashboard: '/dashboard',
  generate: '/generate',
  output: '/output',
  upscale: '/upscale',
  input: '/input',
} as const;

export type ScreenPath = (typeof SCREEN_PATHS)[keyof typeof SCREEN_PATHS];

/** GET: Prometheus' metrics, beside the API (METRICS_TOKEN, METRICS_PORT; docs/operations.md). */
export const METRICS_PATH = '/metrics';

/** Every path the API answers begins with this (anything else may be a page of the app). */
export const API_PREFIX = '/api/';

/** The names of a route template's `:name` parameters. */
type ParamNames<T extends string> = T extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : T extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<T extends string> = Readonly<Record<ParamNames<T>, string>>;

/**
 * A route template with its parameters filled in, each percent-encoded as one path segment (a
 * '/' in a file name stays inside it). '.' and '..' are refused: a URL parser resolves them as
 * path steps, so the URL would silently point at another route.
 */
export function routeUrl<T extends string>(route: T, params: RouteParams<T>): string {
  const values = params as Readonly<Record<string, string>>;
  const parts = templateParts(route);
  let url = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value = values[name];
    if (value === undefined) throw new TypeError(`${route} needs a value for :${name}`);
    if (value === '.' || value === '..') {
      throw new RangeError(`'${value}' cannot be the :${name} of ${route}`);
    }
    url += encodeURIComponent(value) + (parts[i + 1] as string);
  }
  return url;
}

/**
 * A template split once into its text and its parameter names, alternately: a list page fills
 * a thumbnail's route 100 times, and matching the template each time was a tenth of the
 * server's time for a page (issue 28, part 2).
 */
const templates = new Map<string, readonly string[]>();

function templateParts(route: string): readonly string[] {
  let parts = templates.get(route);
  if (!parts) {
    // split() with a capturing group: text, name, text, name, ..., text.
    parts = route.split(/:([A-Za-z]+)/);
    templates.set(route, parts);
  }
  return parts;
}

/** The image galleries, whose files have thumbnails. */
export type GalleryKind = 'ld' | 'hd';

const IMAGE_ROUTES = {
  ld: API_ROUTES.ldImage,
  hd: API_ROUTES.hdImage,
  input: API_ROUTES.inputImage,
} as const;

const THUMBNAIL_ROUTES = {
  ld: API_ROUTES.ldThumbnail,
  hd: API_ROUTES.hdThumbnail,
} as const;

/** Where the browser loads (or, for HD, downloads) one of the user's image files. */
export function imageUrl(area: keyof typeof IMAGE_ROUTES, filename: string): string {
  return routeUrl(IMAGE_ROUTES[area], { filename });
}

/** Where the browser loads an LD or HD image's thumbnail (always WebP). */
export function thumbnailUrl(kind: GalleryKind, filename: string): string {
  return routeUrl(THUMBNAIL_ROUTES[kind], { filename });
}

export function ldImageUrl(filename: string): string {
  return imageUrl('ld', filename);
}

export function ldThumbnailUrl(filename: string): string {
  return thumbnailUrl('ld', filename);
}

/** Where a finished print file downloads. */
export function printFileUrl(filename: string): string {
  return routeUrl(API_ROUTES.printFile, { filename });
}

/** An HD file downloads from here (the server names the download after its source and size). */
export function hdImageUrl(filename: string): string {
  return imageUrl('hd', filename);
}

/** The reference image an LD image was generated from. */
export function inputImageUrl(filename: string): string {
  return imageUrl('input', filename);
}

/** One material map file (or its preview), downloaded as an attachment. */
export function materialMapUrl(filename: string): string {
  return routeUrl(API_ROUTES.mapImage, { filename });
}

/** The ZIP of a ticket, downloaded once. */
export function zipFileUrl(token: string): string {
  return routeUrl(API_ROUTES.zipFile, { token });
}

/** One HD order's status, by the id it was ordered with. */
export function hdJobUrl(id: string): string {
  return routeUrl(API_ROUTES.hdJob, { id });
}

export function zipProgressUrl(token: string): string {
  return routeUrl(API_ROUTES.zipProgress, { token });
}
