import {
  adminUserResponseSchema,
  API_ROUTES,
  quotaDefaultsResponseSchema,
  routeUrl,
  storageUsageSchema,
} from '@tessera/contract';
import type { AdminUser, QuotaDefaults, StorageUsage, UserQuotas } from '@tessera/contract';
import { expectAnswer, getJson, send } from './http';

/** Quotas (issue 29, part 3; contract/quotas.ts): a refusal rejects with the contract's text. */

function putJson(path: string, payload: unknown) {
  return send(path, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
  });
}

/** The signed-in user's own storage use and quota, for the sidebar. */
export function fetchStorageUsage(): Promise<StorageUsage> {
  return getJson(API_ROUTES.storageUsage, storageUsageSchema);
}

export async function fetchQuotaDefaults(): Promise<QuotaDefaults> {
  return (await getJson(API_ROUTES.adminQuotaDefaults, quotaDefaultsResponseSchema)).defaults;
}

export async function saveQuotaDefaults(defaults: QuotaDefaults): Promise<QuotaDefaults> {
  const answer = await putJson(API_ROUTES.adminQuotaDefaults, defaults);
  return expectAnswer(answer, quotaDefaultsResponseSchema).defaults;
}

export async function saveUserQuotas(username: string, quotas: UserQuotas): Promise<AdminUser> {
  const answer = await putJson(routeUrl(API_ROUTES.adminUserQuotas, { username }), quotas);
  return expectAnswer(answer, adminUserResponseSchema).user;
}
