// Single sign-on with OpenID Connect (issue 30, part 4): the shapes of its routes.
import { z } from 'zod';

/** GET /api/sso (public): whether the login page offers single sign-on, and under what name. */
export const ssoConfigResponseSchema = z.object({
  enabled: z.boolean(),
  /** The identity provider's name as the button shows it (OIDC_NAME); absent when off. */
  name: z.string().optional(),
});

/**
 * GET /api/sso/messaging-secret: the messaging login of a session made by single sign-on. The
 * user has no password, so the tab connects to the broker as `messagingUsername` with this
 * secret (it lives and ends with the session). A password session answers 404: its tab asks
 * for the password instead.
 */
export const ssoMessagingSecretResponseSchema = z.object({
  /** The Tessera user: their topics are `command/{action}/user/{username}`. */
  username: z.string(),
  /**
   * The MQTT username to connect with: the user's on the embedded broker; on Mosquitto the
   * session's own login (`<username>~sso~<id>`), so that each session's secret works beside
   * the others' and ends alone.
   */
  messagingUsername: z.string(),
  messagingSecret: z.string(),
});

/**
 * POST /api/logout's answer (200) when the session ended was a single sign-on one and the
 * provider has an end-session endpoint: the browser goes there next (RP-initiated logout), and
 * the provider sends it back to the login page. Any other sign-out answers 204, as ever.
 */
export const logoutResponseSchema = z.object({ providerLogoutUrl: z.string() });

/**
 * Why a single sign-on did not end signed in. The callback sends the browser back to the login
 * page with `?sso-error=<code>`, and the page shows SSO_TEXTS.errors[code].
 */
export const SSO_ERROR_CODES = [
  /** The flow's state (or its cookie) is missing or is not the one this browser started with. */
  'state-mismatch',
  /** The ID token's nonce is not the one this browser's sign-in started with. */
  'nonce-mismatch',
  /** The provider answered with an error (the person cancelled, or was refused there). */
  'provider-refused',
  /** The provider could not be reached or its answer could not be checked. */
  'provider-failed',
  /** The account exists in Tessera and an administrator disabled or removed it. */
  'account-disabled',
  /** Single sign-on is not configured on this server. */
  'not-enabled',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

/** The query parameter of the login page that names an SsoErrorCode. */
export const SSO_ERROR_PARAMETER = 'sso-error';

export function isSsoErrorCode(value: unknown): value is SsoErrorCode {
  return typeof value === 'string' && (SSO_ERROR_CODES as readonly string[]).includes(value);
}

export type SsoConfigResponse = z.infer<typeof ssoConfigResponseSchema>;
export type SsoMessagingSecretResponse = z.infer<typeof ssoMessagingSecretResponseSchema>;
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;
