import {
  adminPasswordResponseSchema,
  adminRetentionRunSchema,
  adminRetentionSchema,
  adminRemoveResponseSchema,
  adminTakeOverResponseSchema,
  adminUsageSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  API_ROUTES,
  auditPageSchema,
  routeUrl,
} from '@tessera/contract';
import type {
  AdminCreateUserRequest,
  AdminPasswordResponse,
  AdminRemoveResponse,
  AdminRetention,
  AdminRetentionRun,
  AdminTakeOverResponse,
  AdminUsage,
  AdminUser,
  AuditPage,
  AuditQuery,
  UserRole,
} from '@tessera/contract';
import { expectAnswer, getJson, postJson } from './http';

/**
 * The administrator's API (issue 29; contract/admin.ts). A refusal rejects with an HttpError
 * carrying the contract's text, which the screens show as it is.
 */

export async function fetchAdminUsers(): Promise<AdminUser[]> {
  return (await getJson(API_ROUTES.adminUsers, adminUsersResponseSchema)).users;
}

/** Without a password the server generates one and answers it, this once. */
export async function createUser(request: AdminCreateUserRequest): Promise<AdminPasswordResponse> {
  return expectAnswer(await postJson(API_ROUTES.adminUsers, request), adminPasswordResponseSchema);
}

/** Ends the user's sessions; without a password the server generates one and answers it. */
export async function resetUserPassword(
  username: string,
  password?: string,
): Promise<AdminPasswordResponse> {
  const path = routeUrl(API_ROUTES.adminUserPassword, { username });
  return expectAnswer(
    await postJson(path, password === undefined ? {} : { password }),
    adminPasswordResponseSchema,
  );
}

export async function setUserRole(username: string, role: UserRole): Promise<AdminUser> {
  const path = routeUrl(API_ROUTES.adminUserRole, { username });
  return expectAnswer(await postJson(path, { role }), adminUserResponseSchema).user;
}

export async function setUserDisabled(username: string, disabled: boolean): Promise<AdminUser> {
  const route = disabled ? API_ROUTES.adminUserDisable : API_ROUTES.adminUserEnable;
  return expectAnswer(await postJson(routeUrl(route, { username })), adminUserResponseSchema).user;
}

export async function removeUser(
  username: string,
  images: 'keep' | 'delete',
): Promise<AdminRemoveResponse> {
  const path = routeUrl(API_ROUTES.adminUserRemove, { username });
  return expectAnswer(await postJson(path, { images }), adminRemoveResponseSchema);
}

/** A retired user's images become the signed-in admin's; the emptied account goes. */
export async function takeOverImages(username: string): Promise<AdminTakeOverResponse> {
  const path = routeUrl(API_ROUTES.adminUserTakeOver, { username });
  return expectAnswer(await postJson(path), adminTakeOverResponseSchema);
}

/** The query string of an audit page: only the filters given. */
export function auditSearch(query: AuditQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function fetchAuditPage(query: AuditQuery): Promise<AuditPage> {
  return getJson(`${API_ROUTES.adminAudit}${auditSearch(query)}`, auditPageSchema);
}

/** The HD retention policy, its dry run as of now, and the latest daily runs. */
export function fetchRetention(): Promise<AdminRetention> {
  return getJson(API_ROUTES.adminRetention, adminRetentionSchema);
}

/** Runs the policy now: removes what the dry run lists at this instant. */
export async function runRetention(): Promise<AdminRetentionRun> {
  return expectAnswer(await postJson(API_ROUTES.adminRetentionRun), adminRetentionRunSchema);
}

/** Usage at a glance (issue 29, part 6): images per day and user, the queue, the engines. */
export function fetchAdminUsage(): Promise<AdminUsage> {
  return getJson(API_ROUTES.adminUsage, adminUsageSchema);
}
