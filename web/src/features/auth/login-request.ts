import { API_ROUTES, errorResponseSchema, loginResponseSchema, TEXTS } from '@tessera/contract';
import { postJson } from '../../lib/api/http';
import type { HttpAnswer } from '../../lib/api/http';
import type { Credentials } from './credentials';

/** On success, the credentials to keep: the ones sent, with the messaging secret if given. */
export type LoginResult = { ok: true; credentials: Credentials } | { ok: false; error: string };

/**
 * POST /api/login (SPEC §7): status 200 is success; any other answer yields its `error` text;
 * a network failure, or an answer without a readable error, yields 'Login failed'.
 */
export async function login(credentials: Credentials): Promise<LoginResult> {
  let answer: HttpAnswer;
  try {
    answer = await postJson(API_ROUTES.login, {
      username: credentials.username,
      password: credentials.password,
    });
  } catch {
    return { ok: false, error: TEXTS.loginFailed };
  }
  if (answer.status === 200) {
    const body = loginResponseSchema.safeParse(answer.body);
    const secret = body.success ? body.data.messagingSecret : undefined;
    return {
      ok: true,
      credentials: {
        username: credentials.username,
        password: credentials.password,
        ...(secret !== undefined && { messagingSecret: secret }),
      },
    };
  }
  const body = errorResponseSchema.safeParse(answer.body);
  return {
    ok: false,
    error: body.success && body.data.error !== '' ? body.data.error : TEXTS.loginFailed,
  };
}

/** POST /api/logout; the session ends on this side whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await postJson(API_ROUTES.logout);
  } catch {
    // Unreachable server: the credentials are cleared all the same.
  }
}
