// The OpenAPI table of the app's own calls: what it reads first, sign-in, generation and the
// HD queue (SPEC §7 and beyond). Shapes are the contract's schemas, never restated here.
import { z } from 'zod';
import {
  emptyResponseSchema,
  healthResponseSchema,
  previewAcceptedSchema,
  readinessResponseSchema,
} from './api-answers.js';
import { BAD_REQUEST, JSON_BODY, json, refusal, type ApiOperation } from './api-operation.js';
import { engineInfoResponseSchema } from './engine-help.js';
import { previewRequestSchema } from './generation.js';
import {
  brokerUrlResponseSchema,
  cancelHdJobRequestSchema,
  generationStatusResponseSchema,
  hdJobsResponseSchema,
  inputsResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  moveHdJobRequestSchema,
  sessionResponseSchema,
  themeResponseSchema,
  titleResponseSchema,
} from './http.js';
import { storageUsageSchema } from './quotas.js';
import { logoutResponseSchema } from './sso.js';
import { API_ROUTES, METRICS_PATH } from './routes.js';

const NO_STORE = { 'cache-control': 'no-store: the answer changes as jobs run.' };
const HD_JOB_UNKNOWN = refusal('No HD job of this user has this id.');

export const APP_OPERATIONS: readonly ApiOperation[] = [
  // What the app reads before anything else (SPEC §1, §7).
  {
    method: 'GET',
    path: API_ROUTES.title,
    tag: 'App',
    summary: "The site's title",
    auth: 'none',
    scope: 'public',
    inSpec: true,
    responses: { 200: json(titleResponseSchema, 'The title the app shows.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.theme,
    tag: 'App',
    summary: 'The theme the app loads',
    auth: 'none',
    scope: 'public',
    inSpec: true,
    responses: { 200: json(themeResponseSchema, 'The theme, a stylesheet under /themes/.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.brokerUrl,
    tag: 'App',
    summary: "The MQTT broker's WebSocket address",
    description: "SPEC §7's `url`, plus the MQTT version the broker speaks (4 if absent).",
    auth: 'none',
    scope: 'public',
    inSpec: true,
    responses: { 200: json(brokerUrlResponseSchema, 'Where the browser connects to the broker.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.openApi,
    tag: 'App',
    summary: 'This OpenAPI 3.1 document',
    description: 'Public, like the shapes it describes: it tells no user data and no secret.',
    auth: 'none',
    scope: 'public',
    responses: {
      200: { description: 'The document.', content: [{ contentType: 'application/json' }] },
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.apiDocs,
    tag: 'App',
    summary: 'The API reference as a page',
    description: 'Every operation of this document, rendered on the server (no script).',
    auth: 'none',
    scope: 'public',
    responses: { 200: { description: 'The page.', content: [{ contentType: 'text/html' }] } },
  },

  // Operations: health, readiness and metrics (docs/operations.md).
  {
    method: 'GET',
    path: API_ROUTES.health,
    tag: 'Operations',
    summary: 'Whether the process and its database answer',
    auth: 'none',
    scope: 'public',
    responses: {
      200: json(healthResponseSchema, "Alive; 'degraded' while the engine has no server."),
      503: json(healthResponseSchema, "The database does not answer: status 'unavailable'."),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.ready,
    tag: 'Operations',
    summary: 'Whether the process can serve (database, broker, file store)',
    auth: 'none',
    scope: 'public',
    responses: {
      200: json(readinessResponseSchema, 'Ready.'),
      503: json(readinessResponseSchema, 'Stopping, or the dependencies that fail.'),
    },
  },
  {
    method: 'GET',
    path: METRICS_PATH,
    tag: 'Operations',
    summary: "Prometheus' metrics",
    description: 'With METRICS_TOKEN set, that token as a Bearer token; 404 when not enabled.',
    auth: 'metrics-token',
    scope: 'public',
    responses: {
      200: { description: "Prometheus' text format.", content: [{ contentType: 'text/plain' }] },
      401: refusal('METRICS_TOKEN is set and the request does not carry it.'),
      404: refusal('Metrics are not served on this listener.'),
    },
  },

  // Sign in, sign out, and who is signed in.
  {
    method: 'POST',
    path: API_ROUTES.login,
    tag: 'Session',
    summary: 'Sign in',
    description: 'Sets the session cookie. SPEC §7: status 200 means success.',
    auth: 'none',
    scope: 'cookie-only',
    inSpec: true,
    body: JSON_BODY(loginRequestSchema),
    responses: {
      200: json(loginResponseSchema, 'Signed in; the session cookie is set.', {
        'set-cookie': 'The session cookie (HttpOnly, SameSite=Strict).',
      }),
      400: refusal('The username or the password is missing.'),
      401: refusal('Wrong username or password, or the account is disabled.'),
      429: refusal('Too many failed attempts: try again after Retry-After seconds.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.logout,
    tag: 'Session',
    summary: 'Sign out',
    description:
      'Ends the session of the cookie sent, if any, and clears the cookie. A single sign-on ' +
      "session whose provider has an end-session endpoint answers 200 with the provider's " +
      'logout address, where the browser goes next (RP-initiated logout).',
    auth: 'none',
    scope: 'cookie-only',
    responses: {
      200: json(logoutResponseSchema, "Signed out here; the provider's logout comes next."),
      204: { description: 'Signed out.' },
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.session,
    tag: 'Session',
    summary: 'Who is signed in',
    auth: 'session',
    scope: 'cookie-only',
    responses: { 200: json(sessionResponseSchema, 'The user of the session and their role.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.storageUsage,
    tag: 'Session',
    summary: "The signed-in user's storage use and quota (the sidebar's bar)",
    auth: 'session',
    scope: 'read',
    responses: { 200: json(storageUsageSchema, 'Bytes used, and the quota in bytes or null.') },
  },

  // Generation (SPEC §7).
  {
    method: 'POST',
    path: API_ROUTES.generatePreview,
    tag: 'Generation',
    summary: 'Queue a preview (LD) job',
    description:
      "SPEC §7's multipart form: the reference file is the part named `image`, and a text part " +
      '`image` also carries its file name (the schema shows the text parts). The result is read ' +
      'through the preview status.',
    auth: 'session',
    scope: 'generate',
    inSpec: true,
    body: { contentType: 'multipart/form-data', schema: previewRequestSchema },
    responses: {
      202: json(previewAcceptedSchema, 'Queued.'),
      400: refusal('A field is missing or out of range, or the file is no usable image.'),
      403: refusal('The form names another user than the one signed in.'),
      409: refusal('A job with this id is already queued or running.'),
      413: refusal('The file is larger than 25 MB (SPEC §5).'),
      429: refusal("The user's preview queue is full."),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.previewStatus,
    tag: 'Generation',
    summary: 'The latest preview job',
    auth: 'session',
    scope: 'read',
    inSpec: true,
    query: z.object({ t: z.string().optional().describe('Cache-busting, ignored.') }),
    responses: {
      200: json(generationStatusResponseSchema, 'Its status.', NO_STORE),
      404: refusal('No preview was generated yet.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.hdStatus,
    tag: 'Generation',
    summary: 'The latest HD job',
    description: 'HD jobs are ordered over MQTT (command/generate-image).',
    auth: 'session',
    scope: 'read',
    inSpec: true,
    responses: {
      200: json(generationStatusResponseSchema, 'Its status.', NO_STORE),
      404: refusal('No HD image was generated yet.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.engineInfo,
    tag: 'Generation',
    summary: 'The engine this server makes previews with',
    auth: 'session',
    scope: 'read',
    responses: { 200: json(engineInfoResponseSchema, 'The preview engine.') },
  },

  // The HD queue (/upscale) and the references library (/input).
  {
    method: 'GET',
    path: API_ROUTES.hdJobs,
    tag: 'HD queue',
    summary: "The user's HD jobs and whether their queue is paused",
    auth: 'session',
    scope: 'read',
    responses: { 200: json(hdJobsResponseSchema, 'The queue.', NO_STORE) },
  },
  {
    method: 'POST',
    path: API_ROUTES.cancelHdJob,
    tag: 'HD queue',
    summary: 'Cancel a queued HD job',
    auth: 'session',
    scope: 'generate',
    body: JSON_BODY(cancelHdJobRequestSchema),
    responses: {
      200: json(emptyResponseSchema, 'Cancelled.'),
      400: BAD_REQUEST,
      404: HD_JOB_UNKNOWN,
      409: refusal('The job runs or ended already.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.moveHdJobToTop,
    tag: 'HD queue',
    summary: "Run a queued HD job next among the user's jobs",
    auth: 'session',
    scope: 'generate',
    body: JSON_BODY(moveHdJobRequestSchema),
    responses: {
      200: json(hdJobsResponseSchema, 'The queue as it now is.', NO_STORE),
      400: BAD_REQUEST,
      404: HD_JOB_UNKNOWN,
      409: refusal('The job is no longer queued.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.pauseHdQueue,
    tag: 'HD queue',
    summary: "Pause the user's HD queue (a running job finishes)",
    auth: 'session',
    scope: 'generate',
    responses: { 200: json(hdJobsResponseSchema, 'The queue as it now is.', NO_STORE) },
  },
  {
    method: 'POST',
    path: API_ROUTES.resumeHdQueue,
    tag: 'HD queue',
    summary: "Resume the user's HD queue",
    auth: 'session',
    scope: 'generate',
    responses: { 200: json(hdJobsResponseSchema, 'The queue as it now is.', NO_STORE) },
  },
  {
    method: 'GET',
    path: API_ROUTES.inputs,
    tag: 'References',
    summary: "The user's uploaded references, newest first",
    auth: 'session',
    scope: 'read',
    responses: { 200: json(inputsResponseSchema, 'The references.', NO_STORE) },
  },
];
