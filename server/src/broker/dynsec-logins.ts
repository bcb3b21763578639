// What Tessera's logins and roles look like in Mosquitto's dynamic-security plugin: shared by
// the users' logins (user-provisioning.ts) and the single sign-on sessions' (sso-session-logins.ts).
import type { DynamicSecurity, DynsecCommand, DynsecResponse } from './dynamic-security.js';

/** Marks the broker's logins that Tessera manages; other applications' logins are left alone. */
export const MANAGED_TEXT_NAME = 'Tessera user';
export const userRole = (username: string) => `tessera-user-${username}`;

export interface Acl {
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

export interface BrokerClient {
  username: string;
  textname?: string;
  textdescription?: string;
  disabled?: boolean;
  roles?: { rolename: string }[];
}

export interface BrokerRole {
  rolename: string;
  acls?: (Acl & { priority?: number })[];
}

export const notFound = (r: DynsecResponse) => /not found/i.test(r.error ?? '');

export async function brokerClient(
  dynsec: DynamicSecurity,
  username: string,
): Promise<BrokerClient | undefined> {
  const [answer] = await dynsec.runChecked([{ command: 'getClient', username }], notFound);
  return (answer?.data as { client?: BrokerClient } | undefined)?.client;
}

/** The logins of a verbose `listClients` answer. */
export function brokerClientsIn(data: unknown): BrokerClient[] {
  return (data as { clients?: BrokerClient[] } | undefined)?.clients ?? [];
}

export async function brokerRole(
  dynsec: DynamicSecurity,
  rolename: string,
): Promise<BrokerRole | undefined> {
  const [answer] = await dynsec.runChecked([{ command: 'getRole', rolename }], notFound);
  return (answer?.data as { role?: BrokerRole } | undefined)?.role;
}

/** Makes the user's role exist with exactly the user's rules (their own topics). */
export async function ensureUserRole(dynsec: DynamicSecurity, username: string): Promise<string> {
  const role = userRole(username);
  await dynsec.runChecked(roleSync(role, await brokerRole(dynsec, role), userAcls(username)));
  return role;
}

const aclKey = (a: Acl) => `${a.acltype} ${a.topic} ${a.allow}`;

/**
 * The commands that make a role hold exactly these rules, editing it in place: deleting a role
 * its logins hold leaves them a broken role entry in Mosquitto 2.0.11.
 */
export function roleSync(
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
