// How a broker login's description records a single sign-on session's secret (issue 30, part
// 4): a digest of the secret, never the secret, and when it stops working.
import { createHash } from 'node:crypto';

/** Which single sign-on secret the broker holds (a digest of it) and until when. */
export function ssoSessionMark(secret: string, expiresAt: Date): string {
  return `${ssoSecretMarkPrefix(secret)}until ${expiresAt.toISOString()}`;
}

export function ssoSecretMarkPrefix(secret: string): string {
  return `sso-session ${createHash('sha256').update(secret).digest('hex').slice(0, 32)} `;
}

/** The expiry (ms) a single sign-on mark names; undefined for any other description. */
export function ssoSessionExpiry(description: string | undefined): number | undefined {
  const match = /^sso-session [0-9a-f]{32} until (\S+)$/.exec(description ?? '');
  if (!match?.[1]) return undefined;
  const at = Date.parse(match[1]);
  return Number.isNaN(at) ? undefined : at;
}
