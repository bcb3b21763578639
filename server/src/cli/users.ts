import { read } from 'read';
import { UserError, type UserService } from '../services/users.js';

const USAGE = `Usage: npm run users -- <command>
  add NAME      create a user (password from the prompt, or the first line of stdin)
  passwd NAME   set a user's password (likewise)
  remove NAME   delete a user and end their sessions
  list          list the users`;

export interface UsersCommand {
  command: 'add' | 'passwd' | 'remove' | 'list';
  name: string;
  /** It changes a user, so an external broker's logins change with it (docs/mosquitto.md). */
  changesUser: boolean;
}

/** The command the arguments name, or the usage as a UserError; nothing is opened yet. */
export function parseUsersCommand(args: string[]): UsersCommand {
  const [command, name = ''] = args;
  const needsName = command === 'add' || command === 'passwd' || command === 'remove';
  if (!command || (needsName && !name) || (!needsName && command !== 'list'))
    throw new UserError(USAGE);
  return { command: command as UsersCommand['command'], name, changesUser: needsName };
}

/** The password is read from a hidden prompt, or from stdin when it is not a terminal; never argv. */
export async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const first = await read({ prompt: 'Password: ', silent: true, replace: '*' });
    const again = await read({ prompt: 'Repeat password: ', silent: true, replace: '*' });
    if (first !== again) throw new UserError('The passwords do not match');
    return first;
  }
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  return input.split(/\r?\n/)[0] ?? '';
}

/** Runs the command on the user service; what to print. */
export async function runUsersCommand(
  { command, name }: UsersCommand,
  users: UserService,
  password: () => Promise<string> = readPassword,
): Promise<string> {
  switch (command) {
    case 'add':
      await users.add(name, await password());
      return `User '${name}' created`;
    case 'passwd':
      await users.setPassword(name, await password());
      return `Password of '${name}' changed`;
    case 'remove':
      await users.remove(name);
      return `User '${name}' removed`;
    default: {
      const list = await users.list();
      return list.length
        ? list.map((u) => `${u.username}\t${u.createdAt}`).join('\n')
        : '(no users)';
    }
  }
}
