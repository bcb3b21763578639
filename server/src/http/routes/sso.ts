import {
  API_ROUTES,
  errorText,
  SCREEN_PATHS,
  SSO_ERROR_PARAMETER,
  type SsoConfigResponse,
  type SsoErrorCode,
  type SsoMessagingSecretResponse,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../../services/auth.js';
import type { SsoSignIn } from '../../services/sso.js';
import { SESSION_COOKIE } from '../session.js';
import {
  SsoFlowError,
  type OidcFlow,
  type PendingSignIn,
  type SignedInPerson,
} from '../sso/oidc-flow.js';
import { setSessionCookie } from './session.js';

/** Single sign-on as configured (OIDC_*); absent: the routes say it is off. */
export interface SsoApi {
  /** The provider's name on the login page's button. */
  name: string;
  flow: OidcFlow;
  signIn: SsoSignIn;
}

/**
 * Holds the flow's state, nonce and PKCE verifier between the redirect out and the way back.
 * SameSite=Lax, not Strict: the way back is a navigation from the provider's site, which a
 * Strict cookie would not come with. HttpOnly, on the SSO paths only, ten minutes.
 */
const FLOW_COOKIE = 'tessera_sso_flow';
const FLOW_COOKIE_PATH = '/api/sso/';
const FLOW_SECONDS = 600;

/** Single sign-on with OpenID Connect (issue 30, part 4): start, callback, messaging login. */
export const ssoRoutes: FastifyPluginAsync<{
  sso?: SsoApi;
  auth: AuthService;
  httpsOnly?: boolean;
  publicOrigin?: string;
}> = async (app, { sso, auth, httpsOnly = false, publicOrigin }) => {
  const secure = (request: FastifyRequest) => httpsOnly || request.protocol === 'https';
  // The provider sends the browser back here; it must be the address registered there.
  const redirectUri = (request: FastifyRequest) =>
    `${appOrigin(request, publicOrigin)}${API_ROUTES.ssoCallback}`;
  const backToLogin = (reply: FastifyReply, code: SsoErrorCode) =>
    reply.redirect(`${SCREEN_PATHS.login}?${SSO_ERROR_PARAMETER}=${code}`, 302);

  app.get(API_ROUTES.ssoConfig, (): SsoConfigResponse =>
    sso ? { enabled: true, name: sso.name } : { enabled: false },
  );

  app.get(API_ROUTES.ssoStart, async (request, reply) => {
    if (!sso) return backToLogin(reply, 'not-enabled');
    let started: Awaited<ReturnType<OidcFlow['start']>>;
    try {
      started = await sso.flow.start(redirectUri(request));
    } catch (err) {
      request.log.error({ err }, 'single sign-on could not start');
      return backToLogin(reply, 'provider-failed');
    }
    reply.setCookie(
      FLOW_COOKIE,
      Buffer.from(JSON.stringify(started.pending)).toString('base64url'),
      {
        path: FLOW_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
        maxAge: FLOW_SECONDS,
      },
    );
    return reply.redirect(started.url, 302);
  });

  app.get(API_ROUTES.ssoCallback, async (request, reply) => {
    if (!sso) return backToLogin(reply, 'not-enabled');
    const pending = readPending(request.cookies[FLOW_COOKIE]);
    // Used once, whatever comes of it.
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    let person: SignedInPerson;
    try {
      person = await sso.flow.finish(
        new URL(request.url, 'http://callback.invalid'),
        redirectUri(request),
        pending,
      );
    } catch (err) {
      const code = err instanceof SsoFlowError ? err.code : 'provider-failed';
      request.log.warn({ err, code }, 'single sign-on refused');
      return backToLogin(reply, code);
    }
    const result = await sso.signIn.signIn(person.claims, request.ip, person.idToken);
    if (!result.ok) return backToLogin(reply, result.code);
    setSessionCookie(request, reply, result.token, httpsOnly);
    // The app's session guard fetches this tab's messaging login (ssoMessagingSecret) there.
    return reply.redirect(SCREEN_PATHS.dashboard, 302);
  });

  app.get(
    API_ROUTES.ssoMessagingSecret,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const login = await auth.ssoMessagingSecret(request.cookies[SESSION_COOKIE]);
      if (!login) return reply.status(404).send({ error: errorText('NOT_FOUND') });
      const answer: SsoMessagingSecretResponse = login;
      // A secret: no cache may keep it.
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
};

/** PUBLIC_URL's origin, or the one the browser used. */
function appOrigin(request: FastifyRequest, publicOrigin: string | undefined): string {
  return publicOrigin ?? `${request.protocol}://${request.host}`;
}

/** Where a browser goes after its single sign-on session ended here (POST /api/logout). */
export type ProviderLogout = (
  request: FastifyRequest,
  idToken: string,
) => Promise<string | undefined>;

/**
 * RP-initiated logout: the provider's end-session endpoint with the session's ID token as
 * `id_token_hint`, the client id, and the login page as `post_logout_redirect_uri` (registered
 * at the provider, docs/sso.md). Undefined when the provider has no such endpoint, or cannot be
 * asked now: the session has ended here all the same.
 */
export function providerLogout(sso: SsoApi, publicOrigin?: string): ProviderLogout {
  return async (request, idToken) => {
    const loginPage = `${appOrigin(request, publicOrigin)}${SCREEN_PATHS.login}`;
    try {
      return await sso.flow.endSessionUrl(idToken, loginPage);
    } catch (err) {
      request.log.warn(
        { err },
        "the provider's logout could not be prepared; signed out here only",
      );
      return undefined;
    }
  };
}

function readPending(cookie: string | undefined): PendingSignIn | undefined {
  if (!cookie) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as unknown;
    const { state, nonce, codeVerifier } = (value ?? {}) as Record<string, unknown>;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string')
      return undefined;
    return { state, nonce, codeVerifier };
  } catch {
    return undefined;
  }
}
