import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Reconciled, UserProvisioning } from '../services/user-provisioning.js';
import type { DynamicSecurity, DynsecCommand, DynsecResponse } from './dynamic-security.js';
import { ssoSecretMarkPrefix, ssoSessionExpiry, ssoSessionMark } from './sso-session-marks.js';

/** Marks the broker's logins that Tessera manages; other applications' logins are left alone. */
export const MANAGED_TEXT_NAME = 'Tessera user';
export const SERVICE_ROLE = 'tessera-service';
export const userRole = (username: string) => `tessera-user-${username}`;

interface Acl {
  acltype: string;
  topic: string;
  allow: boolean;
}

/** Exactly what access.ts allows a user on the embedded broker. */
export function userAcls(username: string): Acl[] {
  return [
    { acltype: 'publishClientSend', topic: `command/+/user/${username}`, allow: true },
    { acltype: 'subscribePattern', topic: `query/+/user/${username}`, allow: true },
  ];
}

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

interface BrokerClient {
  username: string;
  textname?: string;
  textdescription?: string;
  disabled?: boolean;
  roles?: { rolename: string }[];
}

interface BrokerRole {
  rolename: string;
  acls?: (Acl & { priority?: number })[];
}

const notFound = (r: DynsecResponse) => /not found/i.test(r.error ?? '');

/** Mosquitto's dynamic-security plugin, driven as its admin (the service principal). */
export class MosquittoUserProvisioning implements UserProvisioning {
  /** Users whose password this process has seen the broker hold: no round trip per sign-in. */
  private readonly known = new Map<string, string>();
  /** When each single sign-on secret this process gave the broker stops working. */
  private readonly expiries = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly dynsec: DynamicSecurity,
    private readonly serviceUsername: string,
    private readonly log?: Logger,
  ) {}

  async passwordSet(username: string, password: string, passwordHash: string): Promise<void> {
    await this.setLogin(username, password, passwordMark(passwordHash));
  }

  /** The login takes this password; its description records which one (the mark). */
  private async setLogin(username: string, password: string, mark: string): Promise<void> {
    const client = await this.client(username);
    if (client && client.textname !== MANAGED_TEXT_NAME) {
      throw new Error(
        `The broker already has a login '${username}' that Tessera does not manage; ` +
          'rename one of them',
      );
    }
    const role = userRole(username);
    await this.dynsec.runChecked(roleSync(role, await this.role(role), userAcls(username)));
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

  async sessionSecretIssued(username: string, secret: string, expiresAt: Date): Promise<void> {
    try {
      await this.setLogin(username, secret, ssoSessionMark(secret, expiresAt));
      clearTimeout(this.expiries.get(username));
      // This process ends it at its expiry; a start's reconciliation ends it if none lived on.
      const timer = setTimeout(
        () => void this.sessionSecretEnded(username, secret),
        Math.max(0, expiresAt.getTime() - Date.now()),
      );
      timer.unref();
      this.expiries.set(username, timer);
    } catch (err) {
      this.log?.error({ err, username }, 'could not give the broker the session secret');
    }
  }

  async sessionSecretEnded(username: string, secret: string): Promise<void> {
    try {
      const client = await this.client(username);
      if (!client?.textdescription?.startsWith(ssoSecretMarkPrefix(secret))) return;
      this.known.delete(username);
      clearTimeout(this.expiries.get(username));
      this.expiries.delete(username);
      // Disabling closes the login's live connections; the next sign-in enables it again.
      if (!client.disabled) await this.dynsec.runChecked([{ command: 'disableClient', username }]);
    } catch (err) {
      this.log?.error({ err, username }, 'could not end the session secret on the broker');
    }
  }

  async signedIn(username: string, password: string, passwordHash: string): Promise<void> {
    const mark = passwordMark(passwordHash);
    if (this.known.get(username) === mark) return;
    try {
      const client = await this.client(username);
      if (client?.textdescription === mark && !client.disabled) {
        this.known.set(username, mark);
        return;
      }
      await this.passwordSet(username, password, passwordHash);
      this.log?.info({ username }, 'broker login provisioned at sign-in');
    } catch (err) {
      this.log?.error({ err, username }, 'could not provision the broker login at sign-in');
    }
  }

  async removed(username: string): Promise<void> {
    this.known.delete(username);
    const client = await this.client(username);
    if (client && client.textname !== MANAGED_TEXT_NAME) return;
    await this.dynsec.runChecked(
      [
        { command: 'deleteClient', username },
        { command: 'deleteRole', rolename: userRole(username) },
      ],
      notFound,
    );
  }

  async reconcile(
    users: readonly { username: string; passwordHash: string }[],
  ): Promise<Reconciled> {
    const result: Reconciled = { created: [], removed: [], disabled: [], repaired: [] };
    await this.ensureServiceRole();
    const [clientsAnswer, rolesAnswer] = await this.dynsec.runChecked([
      { command: 'listClients', verbose: true, count: -1, offset: 0 },
      { command: 'listRoles', verbose: true, count: -1, offset: 0 },
    ]);
    const clients = new Map(
      ((clientsAnswer?.data as { clients?: BrokerClient[] })?.clients ?? []).map((c) => [
        c.username,
        c,
      ]),
    );
    const roles = new Map(
      ((rolesAnswer?.data as { roles?: BrokerRole[] })?.roles ?? []).map((r) => [r.rolename, r]),
    );
    const wanted = new Set(users.map((u) => u.username));

    const commands: DynsecCommand[] = [];
    for (const client of clients.values()) {
      if (client.textname === MANAGED_TEXT_NAME && !wanted.has(client.username)) {
        commands.push({ command: 'deleteClient', username: client.username });
        if (roles.has(userRole(client.username))) {
          commands.push({ command: 'deleteRole', rolename: userRole(client.username) });
        }
        result.removed.push(client.username);
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
      const ssoUntil = ssoSessionExpiry(client.textdescription);
      if (ssoUntil !== undefined) {
        // A single sign-on session's secret (issue 30): it lasts until its session expires.
        if (ssoUntil <= Date.now() && !client.disabled) {
          commands.push({ command: 'disableClient', username });
          result.disabled.push(username);
        }
        continue;
      }
      if (client.textdescription !== passwordMark(passwordHash) && !client.disabled) {
        // The password changed while the broker could not be told: the old one must stop working.
        commands.push({ command: 'disableClient', username });
        result.disabled.push(username);
      }
      if (client.textdescription === passwordMark(passwordHash) && !client.disabled) {
        this.known.set(username, passwordMark(passwordHash));
      }
    }
    await this.dynsec.runChecked(commands);
    return result;
  }

  async close(): Promise<void> {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
    await this.dynsec.close();
  }

  private async client(username: string): Promise<BrokerClient | undefined> {
    const [answer] = await this.dynsec.runChecked([{ command: 'getClient', username }], notFound);
    return (answer?.data as { client?: BrokerClient } | undefined)?.client;
  }

  private async role(rolename: string): Promise<BrokerRole | undefined> {
    const [answer] = await this.dynsec.runChecked([{ command: 'getRole', rolename }], notFound);
    return (answer?.data as { role?: BrokerRole } | undefined)?.role;
  }

  /** The service's own role, given to its login beside the plugin's admin role it holds. */
  private async ensureServiceRole(): Promise<void> {
    const commands = roleSync(SERVICE_ROLE, await this.role(SERVICE_ROLE), SERVICE_ACLS);
    const service = await this.client(this.serviceUsername);
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
      const now = await this.client(this.serviceUsername);
      if (!now?.roles?.some((r) => r.rolename === SERVICE_ROLE)) {
        throw new Error(`could not give ${this.serviceUsername} the role ${SERVICE_ROLE}`);
      }
    }
  }
}

const aclKey = (a: Acl) => `${a.acltype} ${a.topic} ${a.allow}`;

/**
 * The commands that make a role hold exactly these rules, editing it in place: deleting a role
 * its logins hold leaves them a broken role entry in Mosquitto 2.0.11.
 */
function roleSync(
  rolename: string,
  actual: BrokerRole | undefined,
  expected: Acl[],
): DynsecCommand[] {
  if (!actual) {
    return [
      { command: 'createRole', rolename, textname: 'Tessera' },
      ...expected.map((acl) => ({ command: 'addRoleACL', rolename, ...acl })),
    ];
  }
  const have = actual.acls ?? [];
  const wanted = new Set(expected.map(aclKey));
  const present = new Set(have.map(aclKey));
  return [
    ...have
      .filter((acl) => !wanted.has(aclKey(acl)))
      .map((acl) => ({
        command: 'removeRoleACL',
        rolename,
        acltype: acl.acltype,
        topic: acl.topic,
      })),
    ...expected
      .filter((acl) => !present.has(aclKey(acl)))
      .map((acl) => ({ command: 'addRoleACL', rolename, ...acl })),
  ];
}
