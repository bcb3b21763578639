import { createHash } from 'node:crypto';
import { isValidUsername, type UserRole } from '@tessera/contract';

/** An ID token's claims (and the userinfo's), as the provider gave them. */
export type Claims = Readonly<Record<string, unknown>>;

/** A claim by name, or by a dotted path into nested objects (`realm_access.roles`). */
export function claimAt(claims: Claims, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const step of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * The Tessera username of a provider's user: the username claim when it is a valid username
 * (contract's rules: it becomes topic levels and folder names), else one made from the provider's
 * stable subject, `sso-` and 16 hex digits of SHA-256(issuer, sub). The made one never equals a
 * name a person typed by chance, so a claim that does not fit cannot land on someone's account.
 */
export function ssoUsername(claims: Claims, usernameClaim: string, issuer: string): string {
  const claimed = claimAt(claims, usernameClaim);
  if (typeof claimed === 'string' && isValidUsername(claimed)) return claimed;
  const sub = claims['sub'];
  if (typeof sub !== 'string' || sub === '') throw new Error('the ID token has no sub claim');
  const digest = createHash('sha256').update(issuer).update('\0').update(sub).digest('hex');
  return `sso-${digest.slice(0, 16)}`;
}

/**
 * The role the role claim gives (a string, or a list of strings, holding the admin value), or
 * undefined when no role claim is configured: then Tessera's own role stands.
 */
export function ssoRole(
  claims: Claims,
  settings: { roleClaim?: string; adminValue?: string },
): UserRole | undefined {
  if (settings.roleClaim === undefined || settings.adminValue === undefined) return undefined;
  const value = claimAt(claims, settings.roleClaim);
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => v === settings.adminValue) ? 'admin' : 'member';
}
