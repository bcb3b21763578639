import type { SsoErrorCode, UserRole } from '@tessera/contract';
import type { UserRecord, UserRepository } from '../store/users.js';
import type { AuditTrail } from './audit.js';
import type { AuthService } from './auth.js';
import { UNUSABLE_HASH } from './passwords.js';
import { ssoRole, ssoUsername, type Claims } from './sso-claims.js';

/** Which claims make a Tessera user (OIDC_USERNAME_CLAIM, OIDC_ROLE_CLAIM, OIDC_ADMIN_VALUE). */
export interface SsoRules {
  issuer: string;
  usernameClaim: string;
  roleClaim?: string;
  adminValue?: string;
}

export type SsoSignInResult =
  { ok: true; username: string; token: string } | { ok: false; code: SsoErrorCode };

/** What the audit trail and the users screen call the method of these sign-ins. */
export const SSO_CHANNEL = 'sso';

/**
 * Signs in a person the identity provider vouched for (issue 30, part 4): the user of the
 * username claim, created at their first sign-in without a password (so only the provider lets
 * them in), their role from the role claim when one is configured; disabled and removed
 * accounts are refused. The provider's checks (state, nonce, PKCE, signature) are done by then.
 */
export class SsoSignIn {
  constructor(
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly audit: AuditTrail,
    private readonly rules: SsoRules,
  ) {}

  /** `idToken`: the provider's, kept with the session for its logout (id_token_hint). */
  async signIn(claims: Claims, address: string, idToken?: string): Promise<SsoSignInResult> {
    const username = ssoUsername(claims, this.rules.usernameClaim, this.rules.issuer);
    const role = ssoRole(claims, this.rules);
    let user = await this.users.findByUsername(username);
    if (!user) user = await this.create(username, role ?? 'member', address);
    if (user.disabledAt !== null || user.retiredAt !== null) {
      await this.audit.note({
        actor: null,
        action: 'sign-in-failed',
        target: username,
        address,
        details: { reason: 'disabled', channel: SSO_CHANNEL },
      });
      return { ok: false, code: 'account-disabled' };
    }
    if (role !== undefined && role !== user.role) await this.changeRole(user, role, address);
    const { token } = await this.auth.startSsoSession({
      userId: user.id,
      username,
      ...(idToken !== undefined && { idToken }),
    });
    await this.audit.note({
      actor: { name: username, address },
      action: 'sign-in',
      target: username,
      details: { channel: SSO_CHANNEL, issuer: this.rules.issuer },
    });
    return { ok: true, username, token };
  }

  private async create(username: string, role: UserRole, address: string): Promise<UserRecord> {
    try {
      // No password: the hash of none anyone knows, so only the provider signs them in.
      const user = await this.users.create(username, UNUSABLE_HASH, role);
      await this.audit.note({
        actor: { name: username, address },
        action: 'user-created',
        target: username,
        details: { role, channel: SSO_CHANNEL },
      });
      return user;
    } catch (err) {
      // The same person's first sign-in in two tabs at once: the other one made the user.
      const made = await this.users.findByUsername(username);
      if (made) return made;
      throw err;
    }
  }

  /** The provider's role wins at each sign-in, but never takes away the last admin. */
  private async changeRole(user: UserRecord, role: UserRole, address: string): Promise<void> {
    const result = await this.users.change(user.username, { role });
    if (result !== 'done') return;
    await this.audit.note({
      actor: { name: SSO_CHANNEL, address },
      action: 'role-changed',
      target: user.username,
      details: { from: user.role, to: role, channel: SSO_CHANNEL },
    });
  }
}
