// The OpenAPI 3.1 document of the HTTP API, generated from the operation tables
// (api-operations-*.ts) and the contract's zod schemas through zod's own JSON Schema output
// (JSON Schema 2020-12, OpenAPI 3.1's dialect). Imported as '@tessera/contract/openapi', so the
// web bundle never carries it.
import { z } from 'zod';
import { ADMIN_OPERATIONS } from './api-operations-admin.js';
import { APP_OPERATIONS } from './api-operations-app.js';
import { FILE_OPERATIONS } from './api-operations-files.js';
import { SSO_OPERATIONS } from './api-operations-sso.js';
import { SCRIPT_OPERATIONS } from './api-operations-script.js';
import { WEBHOOK_OPERATIONS } from './api-operations-webhooks.js';
import {
  AUTH_REFUSALS,
  TOKEN_REFUSALS,
  type ApiAnswer,
  type ApiContent,
  type ApiOperation,
} from './api-operation.js';
import { API_TOKEN_PREFIX } from './api-tokens.js';
import { errorResponseSchema, SESSION_COOKIE } from './http.js';
import { API_ROUTES, METRICS_PATH } from './routes.js';

export * from './api-answers.js';
export * from './api-operation.js';

/** The document's version: raised when an operation or a shape changes. */
export const API_VERSION = '0.3.0';

/** Every operation the server answers, in the reference page's order. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...APP_OPERATIONS,
  ...SCRIPT_OPERATIONS,
  ...FILE_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...SSO_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
];

export type JsonSchema = Record<string, unknown>;
/** The document as plain JSON (its shape is checked against OpenAPI's schema by the tests). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/** Fastify's `/api/users/:username` as OpenAPI's templated `/api/users/{username}`. */
export function openApiPath(template: string): string {
  return template.replace(/:([A-Za-z]+)/g, '{$1}');
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const DESCRIPTION = `The HTTP API of Tessera. Calls marked "SPEC §7" are the specification's own; \
the rest are beyond it. Every refusal answers \`{ "error": text }\` with a text for the user.

**Scripts: API tokens.** A user makes personal tokens on the app's tokens screen (a name, \
scopes, an expiry); send one as \`Authorization: Bearer ${API_TOKEN_PREFIX}…\`. It acts as its \
owner, on their own data only, for the operations its scopes allow: \`read\` (reading the \
user's images, tags, statuses and files), \`generate\` (previews, HD orders, material maps, \
print files), \`manage\` (making, renaming and deleting tags, tagging, starring and deleting \
images). Each operation names the scope it needs. An \
unknown, expired or revoked token gets 401; a token without the scope, or on an operation that \
takes the session cookie only (sign-in, the session, token management, the admin API), 403.

**The browser: the session.** \`POST ${API_ROUTES.login}\` sets the \`${SESSION_COOKIE}\` \
cookie. A request with a Bearer token is judged by the token alone, never by a cookie.

**Other origins.** A state-changing request (POST) that carries the session cookie and that a \
browser marks as coming from a page of another origin (Origin, Sec-Fetch-Site) is refused with \
403. A request with a Bearer token carries no ambient credential and is not refused so.`;

const TAGS = [
  ['App', 'What the app reads before anything else, and this document.'],
  ['Operations', 'Health, readiness and metrics for the operator.'],
  ['Session', 'Sign in, sign out, and who is signed in.'],
  ['Generation', 'Preview jobs and the generation status (SPEC §7).'],
  ['HD queue', "The user's HD jobs and HD orders."],
  ['Images and tags', "The user's galleries and tags, as the MQTT commands give them."],
  ['API tokens', "The user's personal tokens for scripts: the session cookie only."],
  ['References', 'Uploaded references and their checks.'],
  ['Files', "The user's image files, to their owner only (404 for anyone else's)."],
  ['Downloads', 'A selection of images as one ZIP.'],
  ['Materials', 'PBR material maps and packages.'],
  ['Print', 'Print files of HD images.'],
  ['Admin', "The administrator's users and audit trail: admins only."],
  [
    'Webhooks',
    'Endpoints told of job events, signed in the Standard Webhooks scheme, and their deliveries.',
  ],
] as const;

/** The schema as JSON Schema; requests are described as sent (input), answers as received. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  if (schema === errorResponseSchema) return ERROR_REF;
  // Refinements (a prompt not blank) have no JSON Schema form: the server still checks them.
  const generated: JsonSchema = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  // The document's dialect is JSON Schema 2020-12 already: each schema need not say so.
  delete generated.$schema;
  return generated;
}

function content(list: readonly ApiContent[], io: 'input' | 'output') {
  return Object.fromEntries(
    list.map(({ contentType, schema }) => [
      contentType,
      schema ? { schema: jsonSchema(schema, io) } : {},
    ]),
  );
}

function response({ description, content: list, headers }: ApiAnswer) {
  return {
    description,
    ...(list && { content: content(list, 'output') }),
    ...(headers && {
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, text]) => [
          name,
          { description: text, schema: { type: 'string' } },
        ]),
      ),
    }),
  };
}

function parameters(operation: ApiOperation) {
  const inPath = [...operation.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = operation.query ? jsonSchema(operation.query, 'input') : {};
  const properties = (query.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query.required ?? []) as string[]);
  const inQuery = Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof schema.description === 'string' && { description: schema.description }),
    schema,
  }));
  return [...inPath, ...inQuery];
}

const SECURITY = {
  none: [],
  session: [{ session: [] }],
  admin: [{ session: [] }],
  // The token is needed only when the operator set one: {} is "no credentials".
  'metrics-token': [{ metricsToken: [] }, {}],
} as const;

/** The cookie, or an API token with the operation's scope (its role name in the requirement). */
function security(operation: ApiOperation) {
  const { auth, scope } = operation;
  if (auth !== 'session' || scope === 'cookie-only' || scope === 'public') return SECURITY[auth];
  return [{ session: [] }, { apiToken: [scope] }];
}

/** The auth statuses an operation answers, from its auth and its token scope. */
function authRefusals({ auth, scope }: ApiOperation): Record<number, ApiAnswer> {
  if (auth === 'admin') return AUTH_REFUSALS;
  if (auth !== 'session') return {};
  if (scope === 'cookie-only') return { 401: AUTH_REFUSALS[401], 403: TOKEN_REFUSALS.cookieOnly };
  return { 401: TOKEN_REFUSALS[401], 403: TOKEN_REFUSALS[403] };
}

/** The name the operation goes by: its API_ROUTES key, after its method. */
function operationId({ method, path }: ApiOperation): string {
  const key =
    path === METRICS_PATH
      ? 'metrics'
      : Object.entries(API_ROUTES).find(([, route]) => route === path)?.[0];
  if (!key) throw new Error(`${path} is not in API_ROUTES`);
  return `${method.toLowerCase()}${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}

function operationObject(operation: ApiOperation) {
  const { auth, scope } = operation;
  const answers: Record<number, ApiAnswer> = { ...authRefusals(operation), ...operation.responses };
  const notes = [
    operation.description,
    operation.inSpec ? 'SPEC §7.' : undefined,
    auth === 'admin' ? 'Admins only.' : undefined,
    scope === 'cookie-only' ? 'Session cookie only: an API token is refused.' : undefined,
    scope !== 'cookie-only' && scope !== 'public' ? `API token scope: ${scope}.` : undefined,
  ].filter(Boolean);
  const params = parameters(operation);
  return {
    operationId: operationId(operation),
    tags: [operation.tag],
    summary: operation.summary,
    ...(notes.length > 0 && { description: notes.join(' ') }),
    security: security(operation),
    ...(params.length > 0 && { parameters: params }),
    ...(operation.body && {
      requestBody: { required: true, content: content([operation.body], 'input') },
    }),
    responses: Object.fromEntries(
      Object.entries(answers)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, answer]) => [status, response(answer)]),
    ),
  };
}

/** The OpenAPI 3.1 document of these operations (every one the server answers by default). */
export function openApiDocument(
  version = API_VERSION,
  operations: readonly ApiOperation[] = API_OPERATIONS,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) {
    const item = (paths[openApiPath(operation.path)] ??= {});
    item[operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: '3.1.1',
    info: { title: 'Tessera API', version, description: DESCRIPTION },
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { Error: z.toJSONSchema(errorResponseSchema, { io: 'output' }) },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `Set by POST ${API_ROUTES.login}.`,
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN.' },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal API token (${API_TOKEN_PREFIX}…), made on the app's tokens screen; its scopes are read, generate and manage.`,
        },
      },
    },
  };
}
