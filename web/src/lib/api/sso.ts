import {
  API_ROUTES,
  ssoConfigResponseSchema,
  ssoMessagingSecretResponseSchema,
} from '@tessera/contract';
import type { SsoConfigResponse, SsoMessagingSecretResponse } from '@tessera/contract';
import { expectAnswer, getJson, send } from './http';

/** GET /api/sso: whether the login page offers single sign-on (issue 30, part 4). */
export function fetchSsoConfig(): Promise<SsoConfigResponse> {
  return getJson(API_ROUTES.ssoConfig, ssoConfigResponseSchema);
}

/**
 * The messaging login of this tab's session when it was made by single sign-on (such a user has
 * no password to type), or null for a password session.
 */
export async function fetchSsoMessagingSecret(): Promise<SsoMessagingSecretResponse | null> {
  const answer = await send(API_ROUTES.ssoMessagingSecret);
  if (answer.status === 404) return null;
  return expectAnswer(answer, ssoMessagingSecretResponseSchema);
}
