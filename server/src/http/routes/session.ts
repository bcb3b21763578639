import {
  API_ROUTES,
  errorText,
  loginRequestSchema,
  type LoginResponse,
  type LogoutResponse,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../../services/auth.js';
import { ownerOf, SESSION_COOKIE } from '../session.js';
import type { ProviderLogout } from './sso.js';

/** Sign in, sign out, and who is signed in. */
export const sessionRoutes: FastifyPluginAsync<{
  auth: AuthService;
  httpsOnly?: boolean;
  /** With single sign-on: the provider's logout, after a single sign-on session's. */
  providerLogout?: ProviderLogout;
}> = async (app, { auth, httpsOnly = false, providerLogout }) => {
  app.post(API_ROUTES.login, async (request, reply) => {
    const body = loginRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('LOGIN_FIELDS_MISSING') });
    const result = await auth.login(body.data.username, body.data.password, request.ip);
    if (!result.ok) {
      if (result.reason === 'rate-limited')
        reply.header('retry-after', String(result.retryAfterSeconds));
      return reply
        .status(result.reason === 'rate-limited' ? 429 : 401)
        .send({ error: result.error });
    }
    setSessionCookie(request, reply, result.token, httpsOnly);
    const answer: LoginResponse = {
      username: result.username,
      ...(result.messagingSecret && { messagingSecret: result.messagingSecret }),
    };
    return answer;
  });

  app.post(API_ROUTES.logout, async (request, reply) => {
    const { idToken } = await auth.logout(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    // Only a single sign-on session kept an ID token: a password session ends as ever.
    const providerLogoutUrl =
      idToken !== undefined && providerLogout ? await providerLogout(request, idToken) : undefined;
    if (providerLogoutUrl === undefined) return reply.status(204).send();
    const answer: LogoutResponse = { providerLogoutUrl };
    // It carries the ID token: no cache may keep it.
    return reply.header('cache-control', 'no-store').send(answer);
  });

  // The role tells the web whether to show the admin screens (issue 29); the API guards them.
  app.get(API_ROUTES.session, { preHandler: app.requireUser }, (request) => ({
    username: ownerOf(request).username,
    role: request.role ?? 'member',
  }));
};

/** The session cookie, as every sign-in sets it (the password's and single sign-on's). */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  httpsOnly: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    // Behind a TLS proxy the request itself is plain HTTP: PUBLIC_URL says browsers use https.
    secure: httpsOnly || request.protocol === 'https',
  });
}
