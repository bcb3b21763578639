/**
 * Single sign-on's settings (OIDC_*, issue 30, part 4): their variables, checks and defaults,
 * which config.ts composes with the other parts'. Unset OIDC_ISSUER: no single sign-on at all.
 */
import { z } from 'zod';
import type { EnvProblem } from '../../runtime/env-schema.js';

/** A claim's name, or a dotted path into nested claims (Keycloak's `realm_access.roles`). */
const claimName = z.string().regex(/^[A-Za-z0-9_:/$-]+(\.[A-Za-z0-9_:/$-]+)*$/, {
  error: 'must be a claim name, or a dotted path such as realm_access.roles',
});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on this machine only (a provider for tests and trials). */
function isAcceptableIssuer(value: string): boolean {
  const url = new URL(value);
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
}

const ssoEnvSchema = z.object({
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, error: "must be the provider's issuer address (https://...)" })
    .refine(isAcceptableIssuer, {
      error: 'must be an https:// address (http:// only for a provider on this machine)',
    })
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(512).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(4096).optional(),
  OIDC_NAME: z.string().min(1).max(60).optional(),
  OIDC_USERNAME_CLAIM: claimName.default('preferred_username'),
  OIDC_ROLE_CLAIM: claimName.optional(),
  OIDC_ADMIN_VALUE: z.string().min(1).max(256).optional(),
});

/** Single sign-on's environment variables, as config.ts reads them. */
export const ssoEnv = ssoEnvSchema.shape;
type SsoEnv = z.output<typeof ssoEnvSchema>;

/** Variables that only mean something together. */
export function checkSsoEnv(env: SsoEnv, problem: EnvProblem): void {
  if (env.OIDC_ISSUER) {
    if (!env.OIDC_CLIENT_ID) problem('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER');
    if (!env.OIDC_CLIENT_SECRET) problem('OIDC_CLIENT_SECRET', 'is required with OIDC_ISSUER');
  } else {
    for (const name of [
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
      'OIDC_NAME',
      'OIDC_ROLE_CLAIM',
      'OIDC_ADMIN_VALUE',
    ] as const) {
      if (env[name] !== undefined) problem(name, 'needs OIDC_ISSUER (the provider) to be set');
    }
  }
  if ((env.OIDC_ROLE_CLAIM === undefined) !== (env.OIDC_ADMIN_VALUE === undefined)) {
    problem('OIDC_ROLE_CLAIM', 'and OIDC_ADMIN_VALUE go together: set both, or neither');
  }
}

/** Which claims make a Tessera user (services/sso.ts). */
export interface SsoClaimSettings {
  /** The claim whose value is the username (default `preferred_username`). */
  usernameClaim: string;
  /** With `adminValue`: the claim (a string or a list) whose value makes an admin. */
  roleClaim?: string;
  adminValue?: string;
}

export interface SsoSettings extends SsoClaimSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the login page's button names: OIDC_NAME, else the issuer's host. */
  name: string;
}

export function ssoSettings(env: SsoEnv): { sso?: SsoSettings } {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return {};
  return {
    sso: {
      issuer: env.OIDC_ISSUER,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      name: env.OIDC_NAME ?? new URL(env.OIDC_ISSUER).hostname,
      usernameClaim: env.OIDC_USERNAME_CLAIM,
      ...(env.OIDC_ROLE_CLAIM !== undefined && { roleClaim: env.OIDC_ROLE_CLAIM }),
      ...(env.OIDC_ADMIN_VALUE !== undefined && { adminValue: env.OIDC_ADMIN_VALUE }),
    },
  };
}
