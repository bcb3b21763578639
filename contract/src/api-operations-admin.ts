// The OpenAPI table of the administrator's API (issue 29, admin.ts): admins only.
import {
  adminCreateUserRequestSchema,
  adminPasswordRequestSchema,
  adminPasswordResponseSchema,
  adminRemoveRequestSchema,
  adminRemoveResponseSchema,
  adminRoleRequestSchema,
  adminTakeOverResponseSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  auditPageSchema,
  auditQuerySchema,
} from './admin.js';
import { adminRetentionRunSchema, adminRetentionSchema } from './admin-retention.js';
import { adminUsageSchema } from './admin-usage.js';
import { quotaDefaultsResponseSchema, quotaDefaultsSchema, userQuotasSchema } from './quotas.js';
import {
  BAD_REQUEST,
  JSON_BODY,
  json,
  refusal,
  type ApiAnswer,
  type ApiOperation,
} from './api-operation.js';
import { API_ROUTES } from './routes.js';

const UNKNOWN = refusal('No such user.');
const REFUSED = refusal(
  'The change is refused: the text says why (the last admin, a retired user).',
);
const BROKER = refusal('The account changed, but the broker was not updated.');

/** An account change: 404 for an unknown user, 409 when refused, 502 if the broker missed it. */
function accountChange(
  path: string,
  summary: string,
  answer: ApiAnswer,
  body?: ApiOperation['body'],
): ApiOperation {
  return {
    method: 'POST',
    path,
    tag: 'Admin',
    summary,
    auth: 'admin',
    scope: 'cookie-only',
    ...(body && { body }),
    responses: { 200: answer, 400: BAD_REQUEST, 404: UNKNOWN, 409: REFUSED, 502: BROKER },
  };
}

const USER = json(adminUserResponseSchema, 'The user as it now is.');

export const ADMIN_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'GET',
    path: API_ROUTES.adminUsers,
    tag: 'Admin',
    summary: 'Every user, with their images, storage and jobs',
    auth: 'admin',
    scope: 'cookie-only',
    responses: { 200: json(adminUsersResponseSchema, 'The users.') },
  },
  {
    method: 'POST',
    path: API_ROUTES.adminUsers,
    tag: 'Admin',
    summary: 'Create a user',
    description: 'Without a password the server generates one and answers it, once.',
    auth: 'admin',
    scope: 'cookie-only',
    body: JSON_BODY(adminCreateUserRequestSchema),
    responses: {
      201: json(adminPasswordResponseSchema, 'Created.'),
      400: BAD_REQUEST,
      409: refusal('The username is taken (or was, by a retired user).'),
      502: BROKER,
    },
  },
  accountChange(
    API_ROUTES.adminUserPassword,
    "Set or generate a user's password (ends their sessions)",
    json(adminPasswordResponseSchema, 'Changed; a generated password is answered once.'),
    JSON_BODY(adminPasswordRequestSchema),
  ),
  accountChange(
    API_ROUTES.adminUserRole,
    "Change a user's role",
    USER,
    JSON_BODY(adminRoleRequestSchema),
  ),
  accountChange(API_ROUTES.adminUserDisable, 'Disable a user (no sign-in; data kept)', USER),
  accountChange(API_ROUTES.adminUserEnable, 'Enable a disabled user', USER),
  accountChange(
    API_ROUTES.adminUserRemove,
    'Remove a user, deleting or keeping their images',
    json(adminRemoveResponseSchema, 'Removed.'),
    JSON_BODY(adminRemoveRequestSchema),
  ),
  accountChange(
    API_ROUTES.adminUserTakeOver,
    "Take over a retired user's images: they become the signed-in admin's",
    json(adminTakeOverResponseSchema, 'Taken over: the counts, and the names changed.'),
  ),
  {
    method: 'GET',
    path: API_ROUTES.adminAudit,
    tag: 'Admin',
    summary: 'The audit trail, newest first',
    auth: 'admin',
    scope: 'cookie-only',
    query: auditQuerySchema,
    responses: { 200: json(auditPageSchema, 'One page of entries.'), 400: BAD_REQUEST },
  },
  {
    method: 'GET',
    path: API_ROUTES.adminRetention,
    tag: 'Admin',
    summary: 'The HD retention policy, its dry run as of now, and the latest daily runs',
    auth: 'admin',
    scope: 'cookie-only',
    responses: { 200: json(adminRetentionSchema, 'The policy (days 0: none) and its dry run.') },
  },
  {
    method: 'POST',
    path: API_ROUTES.adminRetentionRun,
    tag: 'Admin',
    summary: 'Runs the HD retention policy now: removes what the dry run lists',
    auth: 'admin',
    scope: 'cookie-only',
    responses: {
      200: json(adminRetentionRunSchema, 'What was removed and the space freed.'),
      409: refusal('There is no retention policy (HD_RETENTION_DAYS).'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.adminUsage,
    tag: 'Admin',
    summary: 'Usage at a glance: images per UTC day and user (30 days), the queue now, the engines',
    auth: 'admin',
    scope: 'cookie-only',
    responses: { 200: json(adminUsageSchema, 'The figures of the charts.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.adminQuotaDefaults,
    tag: 'Admin',
    summary: 'The default quotas: storage, queued previews and queued HD orders',
    auth: 'admin',
    scope: 'cookie-only',
    responses: { 200: json(quotaDefaultsResponseSchema, 'The defaults.') },
  },
  {
    method: 'PUT',
    path: API_ROUTES.adminQuotaDefaults,
    tag: 'Admin',
    summary: 'Set the default quotas (audited as quota-changed)',
    auth: 'admin',
    scope: 'cookie-only',
    body: JSON_BODY(quotaDefaultsSchema),
    responses: { 200: json(quotaDefaultsResponseSchema, 'The defaults now.'), 400: BAD_REQUEST },
  },
  {
    method: 'PUT',
    path: API_ROUTES.adminUserQuotas,
    tag: 'Admin',
    summary: "Set a user's own quotas; each null follows the default",
    auth: 'admin',
    scope: 'cookie-only',
    body: JSON_BODY(userQuotasSchema),
    responses: { 200: USER, 400: BAD_REQUEST, 404: UNKNOWN, 409: REFUSED },
  },
];
