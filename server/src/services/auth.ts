import { createHash, createHmac, randomBytes } from 'node:crypto';
import { errorText } from '@tessera/contract';
import { noUserProvisioning, type UserProvisioning } from './user-provisioning.js';
import type { SessionRepository } from '../store/sessions.js';
import type { UserRecord, UserRepository } from '../store/users.js';
import type { Owner } from '../owner.js';
import { noAuditTrail, type AuditTrail } from './audit.js';
import type { LoginChannel, LoginGuard } from './login-guard.js';
import { UNUSABLE_HASH, verifyPassword } from './passwords.js';

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A single sign-on session (issue 30, part 4) is short: its messaging secret is its only broker
 * login (a login of its own on Mosquitto), and the provider's own session makes a new one cheap.
 */
export const SSO_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** A user's "last seen" is written at most this often (it is read by the admin's users list). */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

/** The signed-in user of a session, with their role now (issue 29). */
export interface SessionUser extends Owner {
  role: 'admin' | 'member';
}

/** Marks a messaging secret in an MQTT password field (a password so shaped is still checked). */
export const MESSAGING_SECRET_PREFIX = 'tessera-secret:';

export type LoginResult =
  | { ok: true; username: string; token: string; messagingSecret?: string }
  | { ok: false; reason: 'invalid'; error: string }
  /** The password was right, but an admin disabled the account (issue 29). */
  | { ok: false; reason: 'disabled'; error: string }
  | { ok: false; reason: 'rate-limited'; error: string; retryAfterSeconds: number };

/** Passwords and sessions: used by the HTTP login and by the broker's authentication alike. */
export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly guard: LoginGuard,
    private readonly now: () => Date = () => new Date(),
    private readonly provisioning: UserProvisioning = noUserProvisioning,
    /** The embedded broker accepts them; an external broker checks its own logins (passwords). */
    private readonly issueMessagingSecrets = true,
    /** Sign-ins, successful and failed, with their address (issue 29, part 5). */
    private readonly audit: AuditTrail = noAuditTrail,
  ) {}

  /** When each user's "last seen" was last written by this process. */
  private readonly lastSeenWritten = new Map<number, number>();

  /** Checks a username and password under the guard's limits; the user on success. */
  async checkCredentials(
    username: string,
    password: string,
    address: string,
    channel: LoginChannel = 'http',
  ): Promise<
    | { ok: true; userId: number; username: string; passwordHash: string }
    | Exclude<LoginResult, { ok: true }>
  > {
    const attempt = { username, address, channel };
    const verdict = await this.guard.reserve(attempt);
    if (!verdict.allowed) {
      const seconds = verdict.retryAfterSeconds;
      await this.signInFailed(attempt, 'rate-limited');
      return {
        ok: false,
        reason: 'rate-limited',
        error: errorText('TOO_MANY_SIGN_INS', seconds),
        retryAfterSeconds: seconds,
      };
    }
    let user: UserRecord | undefined;
    let valid = false;
    try {
      user = await this.users.findByUsername(username);
      valid = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_HASH);
    } finally {
      // The failure counted in advance by reserve() stands unless the password was right.
      if (!user || !valid) await this.guard.failed(attempt);
    }
    if (!user || !valid) {
      await this.signInFailed(attempt, 'invalid');
      return { ok: false, reason: 'invalid', error: errorText('INVALID_CREDENTIALS') };
    }
    if (user.disabledAt !== null) {
      // Only after the right password: nobody learns otherwise that the account exists.
      await this.signInFailed(attempt, 'disabled');
      return { ok: false, reason: 'disabled', error: errorText('ACCOUNT_DISABLED') };
    }
    await this.guard.succeeded(attempt);
    return { ok: true, userId: user.id, username: user.username, passwordHash: user.passwordHash };
  }

  /**
   * A broker login: the session's messaging secret when it is one (a lookup), else the password
   * (scrypt, under the guard's limits on the `mqtt` channel), as scripts and older tabs send.
   */
  async checkMessagingLogin(
    username: string,
    password: string,
    address: string,
  ): Promise<{ ok: true; username: string } | Exclude<LoginResult, { ok: true }>> {
    const bySecret = await this.messagingSecretUser(username, password);
    // A tab of a session signed in over HTTP: that sign-in is on the trail already.
    if (bySecret) return { ok: true, username: bySecret.username };
    const checked = await this.checkCredentials(username, password, address, 'mqtt');
    if (!checked.ok) return checked;
    await this.signedIn(checked, address, 'mqtt');
    return { ok: true, username: checked.username };
  }

  async login(username: string, password: string, address: string): Promise<LoginResult> {
    const checked = await this.checkCredentials(username, password, address);
    if (!checked.ok) return checked;
    await this.signedIn(checked, address, 'http');
    // An external broker knows only what Tessera told it: a password it lacks (after a
    // reconciliation) is given now, before the browser connects with it.
    await this.provisioning.signedIn(checked.username, password, checked.passwordHash);
    const token = randomBytes(32).toString('base64url');
    // 256 random bits: a guess costs as much as a password's (a refused one is checked as a
    // password, under the guard), and only its SHA-256 is stored, as for the token.
    const messagingSecret = this.issueMessagingSecrets
      ? MESSAGING_SECRET_PREFIX + randomBytes(32).toString('base64url')
      : undefined;
    await this.sessions.create(
      hashToken(token),
      checked.userId,
      new Date(this.now().getTime() + SESSION_TTL_MS),
      messagingSecret && hashToken(messagingSecret),
    );
    return {
      ok: true,
      username: checked.username,
      token,
      ...(messagingSecret && { messagingSecret }),
    };
  }

  /**
   * The user a messaging secret was issued to at login, while its session lives, when it is
   * `username`'s: a broker login without scrypt. Anything else is undefined (check the password).
   */
  async messagingSecretUser(username: string, secret: string): Promise<Owner | undefined> {
    if (!this.issueMessagingSecrets || !secret.startsWith(MESSAGING_SECRET_PREFIX))
      return undefined;
    const session = await this.sessions.findLiveByMessagingSecret(hashToken(secret), this.now());
    if (session?.username !== username) return undefined;
    return { id: session.userId, username: session.username };
  }

  async sessionUser(token: string | undefined): Promise<SessionUser | undefined> {
    if (!token) return undefined;
    const session = await this.sessions.findLive(hashToken(token), this.now());
    if (!session) return undefined;
    await this.sawUser(session.userId);
    return { id: session.userId, username: session.username, role: session.role };
  }

  private async signInFailed(
    attempt: { username: string; address: string; channel: LoginChannel },
    reason: string,
  ): Promise<void> {
    await this.audit.note({
      actor: null,
      action: 'sign-in-failed',
      target: attempt.username,
      address: attempt.address,
      details: { reason, channel: attempt.channel },
    });
  }

  /** A sign-in with the password, over either channel: on the trail, and the user seen. */
  private async signedIn(
    user: { userId: number; username: string },
    address: string,
    channel: LoginChannel,
  ): Promise<void> {
    await this.audit.note({
      actor: { name: user.username, address },
      action: 'sign-in',
      target: user.username,
      details: { channel },
    });
    await this.sawUser(user.userId);
  }

  /** Notes the user as seen, at most every LAST_SEEN_EVERY_MS per process (a write per request would not do). */
  private async sawUser(userId: number): Promise<void> {
    const now = this.now();
    const written = this.lastSeenWritten.get(userId);
    if (written !== undefined && now.getTime() - written < LAST_SEEN_EVERY_MS) return;
    this.lastSeenWritten.set(userId, now.getTime());
    await this.users.touchLastSeen(userId, now, LAST_SEEN_EVERY_MS);
  }

  /**
   * A session for a user the identity provider vouched for (services/sso.ts): no password, so
   * its messaging secret is always issued, on an external broker too (there the provisioning
   * makes the session a login of its own). The secret is derived from the session token, so
   * every tab holding the cookie can ask for it (ssoMessagingSecret) while only its hash is
   * stored. The provider's ID token is kept with it for the provider's logout (id_token_hint).
   */
  async startSsoSession(user: {
    userId: number;
    username: string;
    idToken?: string;
  }): Promise<{ token: string }> {
    const token = randomBytes(32).toString('base64url');
    const secret = ssoSecretOf(token);
    const expiresAt = new Date(this.now().getTime() + SSO_SESSION_TTL_MS);
    await this.sessions.create(
      hashToken(token),
      user.userId,
      expiresAt,
      hashToken(secret),
      user.idToken,
    );
    await this.sawUser(user.userId);
    await this.provisioning.sessionSecretIssued(user.username, secret, expiresAt);
    return { token };
  }

  /**
   * The messaging login of a live single sign-on session: its user, the MQTT username its tabs
   * connect with (the session's own login on Mosquitto) and its secret; undefined for any other
   * session.
   */
  async ssoMessagingSecret(
    token: string | undefined,
  ): Promise<{ username: string; messagingUsername: string; messagingSecret: string } | undefined> {
    if (!token) return undefined;
    const secret = ssoSecretOf(token);
    const session = await this.sessions.findLiveByMessagingSecret(hashToken(secret), this.now());
    return (
      session && {
        username: session.username,
        messagingUsername: this.provisioning.sessionLoginName(session.username, secret),
        messagingSecret: secret,
      }
    );
  }

  /**
   * Ends the session of this token. A single sign-on session answers the ID token its provider
   * gave, for the provider's own logout (id_token_hint); a password session answers nothing.
   */
  async logout(token: string | undefined): Promise<{ idToken?: string }> {
    if (!token) return {};
    const sso = await this.ssoMessagingSecret(token);
    const idToken = await this.sessions.idTokenOf(hashToken(token));
    await this.sessions.remove(hashToken(token));
    // On Mosquitto the session's login stops working with the session, closing its connections.
    if (sso) await this.provisioning.sessionSecretEnded(sso.username, sso.messagingSecret);
    return idToken === undefined ? {} : { idToken };
  }
}

/** A single sign-on session's messaging secret: HMAC of its token, which it cannot reveal. */
function ssoSecretOf(token: string): string {
  const mac = createHmac('sha256', token).update('tessera messaging secret').digest('base64url');
  return MESSAGING_SECRET_PREFIX + mac;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
