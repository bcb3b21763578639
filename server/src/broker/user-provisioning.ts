import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Reconciled, UserProvisioning } from '../services/user-provisioning.js';
import type { DynamicSecurity, DynsecCommand } from './dynamic-security.js';
import {
  brokerClient,
  brokerClientsIn,
  brokerRole,
  ensureUserRole,
  MANAGED_TEXT_NAME,
  notFound,
  roleSync,
  userAcls,
  userRole,
  type Acl,
  type BrokerRole,
} from './dynsec-logins.js';
import { SsoSessionLogins } from './sso-session-logins.js';
import { ssoSessionExpiry, ssoSessionLoginName } from './sso-session-marks.js';

export const SERVICE_ROLE = 'tessera-service';

/**
 * The service reads every user's commands and answers on every user's query topics. Several
 * servers subscribe to `$share/tessera/command/+/user/+`: Mosquitto checks a shared
 * subscription against the filter without its `$share/<group>/` prefix, so this pattern covers
 * it (messaging/mosquitto.shared.test.ts).
 */
export const SERVICE_ACLS: Acl[] = [
  { acltype: 'subscribePattern', topic: 'command/+/user/+', allow: true },
  { acltype: 'publishClientReceive', topic: 'command/+/user/+', allow: true },
  { acltype: 'publishClientSend', topic: 'query/+/user/+', allow: true },
];

/**
 * Which of Tessera's passwords the broker holds, without the password: a digest of the stored
 * (salted, scrypt) hash, kept in the login's description. A new password gives a new hash.
 */
export function passwordMark(passwordHash: string): string {
  return `password ${createHash('sha256').update(passwordHash).digest('hex').slice(0, 32)}`;
}

/** Mosquitto's dynamic-security plugin, driven as its admin (the service principal). */
export class MosquittoUserProvisioning implements UserProvisioning {
  /** Users whose password this process has seen the broker hold: no round trip per sign-in. */
  private readonly known = new Map<string, string>();
  private readonly sessions: SsoSessionLogins;

  constructor(
    private readonly dynsec: DynamicSecurity,
    private readonly serviceUsername: string,
    private readonly log?: Logger,
  ) {
    this.sessions = new SsoSessionLogins(dynsec, log);
  }

  /** A new password ends the user's sessions, single sign-on ones too: their logins go. */
  async passwordSet(username: string, password: string, passwordHash: string): Promise<void> {
    await this.setLogin(username, password, passwordMark(passwordHash));
    await this.dynsec.runChecked(await this.sessions.deletionsFor(username), notFound);
  }

  /** The login takes this password; its description records which one (the mark). */
  private async setLogin(username: string, password: string, mark: string): Promise<void> {
    const client = await brokerClient(this.dynsec, username);
    if (client && client.textname !== MANAGED_TEXT_NAME) {
      throw new Error(
        `The broker already has a login '${username}' that Tessera does not manage; ` +
          'rename one of them',
      );
    }
    const role = await ensureUserRole(this.dynsec, username);
    const login = {
      username,
      password,
      textname: MANAGED_TEXT_NAME,
      textdescription: mark,
      roles: [{ rolename: role }],
    };
    // A new password closes the login's live connections (the plugin does so itself).
    await this.dynsec.runChecked(
      client
        ? [
            { command: 'modifyClient', ...login },
            { command: 'enableClient', username },
          ]
        : [{ command: 'createClient', ...login }],
    );
    this.known.set(username, mark);
  }

  /** A login of the session's own, beside the user's: see sso-session-logins.ts. */
  sessionLoginName(username: string, secret: string): string {
    return ssoSessionLoginName(username, secret);
  }

  sessionSecretIssued(username: string, secret: string, expiresAt: Date): Promise<void> {
    return this.sessions.issued(username, secret, expiresAt);
  }

  sessionSecretEnded(username: string, secret: string): Promise<void> {
    return this.sessions.ended(username, secret);
  }

  async signedIn(username: string, password: string, passwordHash: string): Promise<void> {
    const mark = passwordMark(passwordHash);
    if (this.known.get(username) === mark) return;
    try {
      const client = await brokerClient(this.dynsec, username);
      if (client?.textdescription === mark && !client.disabled) {
        this.known.set(username, mark);
        return;
      }
      await this.setLogin(username, password, mark);
      this.log?.info({ username }, 'broker login provisioned at sign-in');
    } catch (err) {
      this.log?.error({ err, username }, 'could not provision the broker login at sign-in');
    }
  }

  /** The user's login, their sessions' logins, then the role they held. */
  async removed(username: string): Promise<void> {
    this.known.delete(username);
    const client = await brokerClient(this.dynsec, username);
    const sessions = await this.sessions.deletionsFor(username);
    if (client && client.textname !== MANAGED_TEXT_NAME) {
      await this.dynsec.runChecked(sessions, notFound);
      return;
    }
    await this.dynsec.runChecked(
      [
        ...sessions,
        { command: 'deleteClient', username },
        { command: 'deleteRole', rolename: userRole(username) },
      ],
      notFound,
    );
  }

  async reconcile(
    users: readonly { username: string; passwordHash: string }[],
  ): Promise<Reconciled> {
    const result: Reconciled = {
      created: [],
      removed: [],
      disabled: [],
      repaired: [],
      sessionsEnded: [],
    };
    await this.ensureServiceRole();
    const [clientsAnswer, rolesAnswer] = await this.dynsec.runChecked([
      { command: 'listClients', verbose: true, count: -1, offset: 0 },
      { command: 'listRoles', verbose: true, count: -1, offset: 0 },
    ]);
    const clients = new Map(brokerClientsIn(clientsAnswer?.data).map((c) => [c.username, c]));
    const roles = new Map(
      ((rolesAnswer?.data as { roles?: BrokerRole[] })?.roles ?? []).map((r) => [r.rolename, r]),
    );
    const wanted = new Set(users.map((u) => u.username));

    const commands: DynsecCommand[] = [];
    // Every login of a gone user goes before their role: a role goes once no login holds it.
    const gone = new Set<string>();
    for (const { loginName, owner } of this.sessions.stale(clients.values(), wanted, Date.now())) {
      commands.push({ command: 'deleteClient', username: loginName });
      result.sessionsEnded.push(loginName);
      if (owner !== undefined && !wanted.has(owner)) gone.add(owner);
    }
    for (const client of clients.values()) {
      if (client.textname === MANAGED_TEXT_NAME && !wanted.has(client.username)) {
        commands.push({ command: 'deleteClient', username: client.username });
        result.removed.push(client.username);
        gone.add(client.username);
      }
    }
    for (const username of gone) {
      if (roles.has(userRole(username))) {
        commands.push({ command: 'deleteRole', rolename: userRole(username) });
      }
    }
    for (const { username, passwordHash } of users) {
      const client = clients.get(username);
      if (client && client.textname !== MANAGED_TEXT_NAME) {
        this.log?.warn(
          { username },
          'the broker has a login of this name that Tessera does not manage',
        );
        continue;
      }
      const role = userRole(username);
      const roleFixes = roleSync(role, roles.get(role), userAcls(username));
      commands.push(...roleFixes);
      if (client && roleFixes.length > 0) result.repaired.push(username);
      if (!client) {
        // No password is known here (Tessera keeps only a hash): the login exists but accepts
        // nothing until the user's next sign-in gives it the password.
        commands.push({
          command: 'createClient',
          username,
          textname: MANAGED_TEXT_NAME,
          textdescription: 'password not yet provisioned',
          roles: [{ rolename: role }],
        });
        result.created.push(username);
        continue;
      }
      if (!client.roles?.some((r) => r.rolename === role)) {
        commands.push({ command: 'addClientRole', username, rolename: role });
        if (!result.repaired.includes(username)) result.repaired.push(username);
      }
      const current = client.textdescription === passwordMark(passwordHash);
      // An earlier build gave a single sign-on secret to the user's own login: it works until
      // its session's end (ssoSessionExpiry), like the other password that is not Tessera's.
      const ssoUntil = ssoSessionExpiry(client.textdescription);
      const stillValid = current || (ssoUntil !== undefined && ssoUntil > Date.now());
      if (!stillValid && !client.disabled) {
        // The password changed while the broker could not be told: the old one must stop working.
        commands.push({ command: 'disableClient', username });
        result.disabled.push(username);
      }
      if (current && !client.disabled) this.known.set(username, passwordMark(passwordHash));
    }
    await this.dynsec.runChecked(commands);
    return result;
  }

  async close(): Promise<void> {
    this.sessions.close();
    await this.dynsec.close();
  }

  /** The service's own role, given to its login beside the plugin's admin role it holds. */
  private async ensureServiceRole(): Promise<void> {
    const actual = await brokerRole(this.dynsec, SERVICE_ROLE);
    const commands = roleSync(SERVICE_ROLE, actual, SERVICE_ACLS);
    const service = await brokerClient(this.dynsec, this.serviceUsername);
    if (!service) {
      throw new Error(
        `The broker has no login '${this.serviceUsername}' (MQTT_USERNAME): create it with ` +
          '`mosquitto_ctrl dynsec init` (docs/mosquitto.md)',
      );
    }
    await this.dynsec.runChecked(commands);
    // Asked first: Mosquitto 2.0.11 answers "Internal error" to a role the login already has.
    if (!service.roles?.some((r) => r.rolename === SERVICE_ROLE)) {
      // Once per broker, at the first start: this closes the service's connections, which is
      // why the messaging service connects only after the reconciliation.
      await this.dynsec.runOnOwnLogin([
        { command: 'addClientRole', username: this.serviceUsername, rolename: SERVICE_ROLE },
      ]);
      const now = await brokerClient(this.dynsec, this.serviceUsername);
      if (!now?.roles?.some((r) => r.rolename === SERVICE_ROLE)) {
        throw new Error(`could not give ${this.serviceUsername} the role ${SERVICE_ROLE}`);
      }
    }
  }
}
