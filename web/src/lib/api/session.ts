import {
  API_ROUTES,
  errorResponseSchema,
  loginResponseSchema,
  logoutResponseSchema,
  sessionResponseSchema,
  TEXT_BUNDLES,
} from '@tessera/contract';
import type { SessionResponse } from '@tessera/contract';
import { expectAnswer, postJson, send } from './http';
import type { HttpAnswer } from './http';
import { currentTexts, serverText } from '../i18n/locale';

/** The texts in the language shown when one is written. */
const texts = () => currentTexts(TEXT_BUNDLES.texts);

/** What signing in takes and gives back (features/auth keeps them as its Credentials). */
export interface SignInCredentials {
  username: string;
  password: string;
  messagingSecret?: string;
}

/** On success, the credentials to keep: the ones sent, with the messaging secret if given. */
export type LoginResult =
  { ok: true; credentials: SignInCredentials } | { ok: false; error: string };

/**
 * POST /api/login (SPEC §7): status 200 is success; any other answer yields its `error` text;
 * a network failure, or an answer without a readable error, yields 'Login failed'.
 */
export async function login(credentials: SignInCredentials): Promise<LoginResult> {
  let answer: HttpAnswer;
  try {
    answer = await postJson(API_ROUTES.login, {
      username: credentials.username,
      password: credentials.password,
    });
  } catch {
    return { ok: false, error: texts().loginFailed };
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
    error:
      body.success && body.data.error !== '' ? serverText(body.data.error) : texts().loginFailed,
  };
}

/**
 * POST /api/logout; the session ends on this side whatever the answer. A single sign-on session
 * whose provider logs out too answers where the browser goes next (its end-session page);
 * otherwise null.
 */
export async function logout(): Promise<string | null> {
  try {
    const answer = await postJson(API_ROUTES.logout);
    if (answer.status !== 200) return null;
    const body = logoutResponseSchema.safeParse(answer.body);
    return body.success ? body.data.providerLogoutUrl : null;
  } catch {
    // Unreachable server: the credentials are cleared all the same.
    return null;
  }
}

/**
 * Who the session cookie belongs to (GET /api/session), or null without a live session. The
 * cookie is shared by every tab of the browser; the messaging password (credentials.ts) is not.
 */
export async function fetchSession(): Promise<SessionResponse | null> {
  const answer = await send(API_ROUTES.session);
  if (answer.status === 401) return null;
  return expectAnswer(answer, sessionResponseSchema);
}
