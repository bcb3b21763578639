import {
  API_ROUTES,
  apiTokensResponseSchema,
  createApiTokenResponseSchema,
} from '@tessera/contract';
import type { ApiToken, CreateApiTokenRequest, CreateApiTokenResponse } from '@tessera/contract';
import { ACCEPT_ANY, expectAnswer, getJson, postJson } from './http';

/** Personal API tokens (issue 30, part 1): a refusal rejects with the contract's text. */

export async function fetchApiTokens(): Promise<ApiToken[]> {
  return (await getJson(API_ROUTES.apiTokens, apiTokensResponseSchema)).tokens;
}

/** The token made and its secret, which the server never shows again. */
export async function createApiToken(
  request: CreateApiTokenRequest,
): Promise<CreateApiTokenResponse> {
  return expectAnswer(
    await postJson(API_ROUTES.createApiToken, request),
    createApiTokenResponseSchema,
  );
}

export async function revokeApiToken(id: number): Promise<void> {
  expectAnswer(await postJson(API_ROUTES.revokeApiToken, { id }), ACCEPT_ANY);
}
