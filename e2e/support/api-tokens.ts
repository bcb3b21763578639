import { API_ROUTES, createApiTokenResponseSchema, SESSION_COOKIE } from '@tessera/contract';
import type { ApiTokenScope } from '@tessera/contract';
import type { RunningServer } from './server.js';
import type { User } from './session.js';

/** Makes an API token of `user` as the tokens screen does (the cookie), for a script's use. */
export async function makeApiToken(
  server: RunningServer,
  user: User,
  scopes: ApiTokenScope[],
): Promise<string> {
  const login = await fetch(new URL(API_ROUTES.login, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${SESSION_COOKIE}=`))
    ?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  const made = await fetch(new URL(API_ROUTES.createApiToken, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'e2e script', scopes, expires_in_days: 30 }),
  });
  if (made.status !== 201) throw new Error(`token not made: ${made.status} ${await made.text()}`);
  return createApiTokenResponseSchema.parse(await made.json()).secret;
}

/** A script's GET with a Bearer token: its status. */
export async function statusWithToken(server: RunningServer, path: string, secret: string) {
  const res = await fetch(new URL(path, server.url), {
    headers: { authorization: `Bearer ${secret}` },
  });
  await res.arrayBuffer();
  return res.status;
}

/** A script's call with a Bearer token (a JSON body for a POST): its status and JSON answer. */
export async function callWithToken(
  server: RunningServer,
  secret: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(new URL(path, server.url), {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}
