import type { Logger } from 'pino';
import type { DynamicSecurity, DynsecCommand } from './dynamic-security.js';
import { brokerClientsIn, ensureUserRole, notFound, type BrokerClient } from './dynsec-logins.js';
import {
  SSO_SESSION_TEXT_NAME,
  ssoSessionExpiry,
  ssoSessionLoginName,
  ssoSessionLoginOwner,
  ssoSessionMark,
} from './sso-session-marks.js';

/**
 * Each single sign-on session is a login of its own on Mosquitto (issue 30, part 4): named after
 * the user and the session (sso-session-marks.ts), holding the user's role (their own topics
 * only), with the session's messaging secret as its password. Two browsers of one person have
 * two logins side by side, and each goes with its session: sign-out, expiry, disabling, removal.
 */
export class SsoSessionLogins {
  /** When each session login this process made stops working. */
  private readonly expiries = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly dynsec: DynamicSecurity,
    private readonly log?: Logger,
  ) {}

  /** The session's login, made before the browser asks for it; never throws. */
  async issued(username: string, secret: string, expiresAt: Date): Promise<void> {
    const loginName = ssoSessionLoginName(username, secret);
    try {
      const role = await ensureUserRole(this.dynsec, username);
      await this.dynsec.runChecked([
        {
          command: 'createClient',
          username: loginName,
          password: secret,
          textname: SSO_SESSION_TEXT_NAME,
          textdescription: ssoSessionMark(secret, expiresAt),
          roles: [{ rolename: role }],
        },
      ]);
      // This process deletes it at its expiry; a start's reconciliation does if none lived on.
      const timer = setTimeout(
        () => void this.ended(username, secret),
        Math.max(0, expiresAt.getTime() - Date.now()),
      );
      timer.unref();
      this.expiries.set(loginName, timer);
    } catch (err) {
      this.log?.error({ err, username }, "could not give the broker the session's login");
    }
  }

  /** The session ended: its login goes, and the plugin closes its live connections. */
  async ended(username: string, secret: string): Promise<void> {
    const loginName = ssoSessionLoginName(username, secret);
    this.forget(loginName);
    try {
      await this.dynsec.runChecked([{ command: 'deleteClient', username: loginName }], notFound);
    } catch (err) {
      this.log?.error({ err, username }, "could not end the session's login on the broker");
    }
  }

  /** Commands deleting every session login of this user (removed, disabled, new password). */
  async deletionsFor(username: string): Promise<DynsecCommand[]> {
    const [answer] = await this.dynsec.runChecked([
      { command: 'listClients', verbose: true, count: -1, offset: 0 },
    ]);
    return brokerClientsIn(answer?.data)
      .filter((c) => isSessionLogin(c) && ssoSessionLoginOwner(c.username) === username)
      .map((c) => {
        this.forget(c.username);
        return { command: 'deleteClient', username: c.username };
      });
  }

  /**
   * The session logins a start's reconciliation deletes: expired ones, and those of users
   * Tessera no longer has, or has disabled (not in `wanted`).
   */
  stale(
    clients: Iterable<BrokerClient>,
    wanted: ReadonlySet<string>,
    now: number,
  ): { loginName: string; owner: string | undefined }[] {
    const stale: { loginName: string; owner: string | undefined }[] = [];
    for (const client of clients) {
      if (!isSessionLogin(client)) continue;
      const owner = ssoSessionLoginOwner(client.username);
      const until = ssoSessionExpiry(client.textdescription);
      if (owner === undefined || !wanted.has(owner) || until === undefined || until <= now) {
        this.forget(client.username);
        stale.push({ loginName: client.username, owner });
      }
    }
    return stale;
  }

  close(): void {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private forget(loginName: string): void {
    clearTimeout(this.expiries.get(loginName));
    this.expiries.delete(loginName);
  }
}

const isSessionLogin = (client: BrokerClient) => client.textname === SSO_SESSION_TEXT_NAME;
