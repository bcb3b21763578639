// How Mosquitto knows a single sign-on session's login (issue 30, part 4): its name, and a
// description recording a digest of the session's secret (never the secret) and when it ends.
import { createHash } from 'node:crypto';
import { isValidUsername } from '@tessera/contract';

/** Marks the broker's logins of single sign-on sessions, one per session. */
export const SSO_SESSION_TEXT_NAME = 'Tessera single sign-on session';

/**
 * Between the user's name and the session's id: `~` is never in a Tessera username (contract
 * USERNAME_PATTERN), so a session's login can never be named like a user's, nor like another
 * user's session.
 */
const SESSION_SEPARATOR = '~sso~';
const SESSION_NAME = /^(.+)~sso~[0-9a-f]{16}$/;

const digestOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The MQTT username of the session whose messaging secret this is: `sofia~sso~<16 hex>`. */
export function ssoSessionLoginName(username: string, secret: string): string {
  return `${username}${SESSION_SEPARATOR}${digestOf(secret).slice(0, 16)}`;
}

/** The Tessera user a session's login belongs to; undefined for any other name. */
export function ssoSessionLoginOwner(loginName: string): string | undefined {
  const owner = SESSION_NAME.exec(loginName)?.[1];
  return owner !== undefined && isValidUsername(owner) ? owner : undefined;
}

/** Which single sign-on secret the broker holds (a digest of it) and until when. */
export function ssoSessionMark(secret: string, expiresAt: Date): string {
  return `${ssoSecretMarkPrefix(secret)}until ${expiresAt.toISOString()}`;
}

export function ssoSecretMarkPrefix(secret: string): string {
  return `sso-session ${digestOf(secret).slice(0, 32)} `;
}

/** The expiry (ms) a single sign-on mark names; undefined for any other description. */
export function ssoSessionExpiry(description: string | undefined): number | undefined {
  const match = /^sso-session [0-9a-f]{32} until (\S+)$/.exec(description ?? '');
  if (!match?.[1]) return undefined;
  const at = Date.parse(match[1]);
  return Number.isNaN(at) ? undefined : at;
}
