// Single sign-on's operations (issue 30, part 4) for the OpenAPI document.
import { json, refusal, type ApiOperation } from './api-operation.js';
import { API_ROUTES } from './routes.js';
import { ssoConfigResponseSchema, ssoMessagingSecretResponseSchema } from './sso.js';

const REDIRECT = (description: string) => ({
  description,
  headers: { location: 'Where the browser goes next.' },
});

export const SSO_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'GET',
    path: API_ROUTES.ssoConfig,
    scope: 'public',
    tag: 'Session',
    summary: 'Whether single sign-on is offered',
    description: 'What the login page reads to show its "Sign in with …" button (OIDC_ISSUER).',
    auth: 'none',
    responses: { 200: json(ssoConfigResponseSchema, "On or off, and the provider's name.") },
  },
  {
    method: 'GET',
    path: API_ROUTES.ssoStart,
    scope: 'public',
    tag: 'Session',
    summary: 'Start a single sign-on',
    description:
      'A browser navigation: redirects to the OpenID Connect provider (authorization code with ' +
      'PKCE, state and nonce kept in a short-lived cookie).',
    auth: 'none',
    responses: {
      302: REDIRECT("The provider's authorization page, or the login page with `sso-error`."),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.ssoCallback,
    scope: 'public',
    tag: 'Session',
    summary: "The provider's redirect back",
    description:
      'Checks state, nonce and the code, signs the user in (created at the first sign-in) and ' +
      'sets the session cookie as POST /api/login does; refusals go back to the login page with ' +
      '`?sso-error=<code>` (SSO_ERROR_CODES).',
    auth: 'none',
    responses: { 302: REDIRECT('The app when signed in; else the login page with `sso-error`.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.ssoMessagingSecret,
    scope: 'cookie-only',
    tag: 'Session',
    summary: "A single sign-on session's messaging login",
    description:
      'The secret a tab of a single sign-on session connects to the broker with (such a user has ' +
      'no password), and the MQTT username to connect as (on Mosquitto, a login of the ' +
      "session's own). 404 for a session signed in with a password.",
    auth: 'session',
    responses: {
      200: json(
        ssoMessagingSecretResponseSchema,
        "The user, the MQTT username to connect as and the session's secret.",
      ),
      404: refusal('Not a single sign-on session: the tab uses the password.'),
    },
  },
];
