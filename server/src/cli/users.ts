import { read } from 'read';
import { errorText, USER_ROLES, type UserRole } from '@tessera/contract';
import { UserError, type UserService } from '../services/users.js';

const USAGE = `Usage: npm run users -- <command>
  add NAME [ROLE]   create a user, a member unless ROLE is admin (password from the prompt,
                    or the first line of stdin); the first user is always an admin
  passwd NAME       set a user's password (likewise)
  role NAME ROLE    make the user an admin or a member
  disable NAME      no sign-in nor connection until enabled; their data stays
  enable NAME       undo disable
  remove NAME       delete a user, their images and files, and end their sessions
  take-over NAME ADMIN
                    the images of NAME, removed keeping them, become ADMIN's (renamed where
                    ADMIN has the name) and the emptied account goes; run again after a crash
  list              list the users`;

const NAMED = ['add', 'passwd', 'role', 'disable', 'enable', 'remove', 'take-over'] as const;

export interface UsersCommand {
  command: (typeof NAMED)[number] | 'list';
  name: string;
  /** add's and role's ROLE. */
  role?: UserRole;
  /** take-over's ADMIN. */
  to?: string;
  /** It changes a user, so an external broker's logins change with it (docs/mosquitto.md). */
  changesUser: boolean;
}

const isNamed = (command: string | undefined): command is (typeof NAMED)[number] =>
  (NAMED as readonly (string | undefined)[]).includes(command);

/** The command the arguments name, or the usage as a UserError; nothing is opened yet. */
export function parseUsersCommand(args: string[]): UsersCommand {
  const [command, name = '', role] = args;
  if (command === 'list') return { command, name, changesUser: false };
  if (command === 'take-over') {
    if (!name || !role || args.length > 3) throw new UserError(USAGE);
    return { command, name, to: role, changesUser: false };
  }
  if (!isNamed(command) || !name || (command === 'role' && role === undefined))
    throw new UserError(USAGE);
  if (role !== undefined && !(command === 'add' || command === 'role')) throw new UserError(USAGE);
  if (role !== undefined && !(USER_ROLES as readonly string[]).includes(role))
    throw UserError.of('ROLE_UNKNOWN', role);
  return { command, name, ...(role && { role: role as UserRole }), changesUser: true };
}

/** The password is read from a hidden prompt, or from stdin when it is not a terminal; never argv. */
export async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const first = await read({ prompt: 'Password: ', silent: true, replace: '*' });
    const again = await read({ prompt: 'Repeat password: ', silent: true, replace: '*' });
    if (first !== again) throw new UserError(errorText('PASSWORDS_DIFFER'));
    return first;
  }
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  return input.split(/\r?\n/)[0] ?? '';
}

/** Runs the command on the user service; what to print. */
export async function runUsersCommand(
  { command, name, role = 'member', to = '' }: UsersCommand,
  users: UserService,
  password: () => Promise<string> = readPassword,
): Promise<string> {
  switch (command) {
    case 'add':
      await users.add(name, await password(), role);
      return `User '${name}' created`;
    case 'passwd':
      await users.setPassword(name, await password());
      return `Password of '${name}' changed`;
    case 'role':
      await users.setRole(name, role);
      return `'${name}' is now ${role === 'admin' ? 'an admin' : 'a member'}`;
    case 'disable':
      await users.disable(name);
      return `User '${name}' disabled`;
    case 'enable':
      await users.enable(name);
      return `User '${name}' enabled`;
    case 'remove': {
      const removed = await users.remove(name);
      return `User '${name}' removed with ${removed.ldImages} LD and ${removed.hdImages} HD images (${removed.filesRemoved} files)`;
    }
    case 'take-over': {
      const taken = await users.takeOver(name, to);
      return `${taken.ldImages} LD and ${taken.hdImages} HD images of '${name}' are now '${to}'s (${taken.renamed} renamed); the account is removed`;
    }
    default: {
      const list = await users.overview();
      return list.length
        ? list
            .map((u) =>
              [u.username, u.createdAt, u.role, u.disabledAt ? 'disabled' : 'enabled'].join('\t'),
            )
            .join('\n')
        : '(no users)';
    }
  }
}
