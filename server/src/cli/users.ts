import { read } from 'read';
import { ConfigError, databaseLocation, loadConfig } from '../config.js';
import { userProvisioning } from '../container.js';
import { ProvisioningError, UserError, UserService } from '../services/users.js';
import { initialPasswordFile } from '../files/initial-password-file.js';
import { openDatabase } from '../store/database.js';
import { createUserRepository } from '../store/users.js';

const USAGE = `Usage: npm run users -- <command>
  add NAME      create a user (password from the prompt, or the first line of stdin)
  passwd NAME   set a user's password (likewise)
  remove NAME   delete a user and end their sessions
  list          list the users`;

/** The password is read from a hidden prompt, or from stdin when it is not a terminal; never argv. */
async function readPassword(): Promise<string> {
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

async function run(args: string[]): Promise<string> {
  const [command, name = ''] = args;
  const needsName = command === 'add' || command === 'passwd' || command === 'remove';
  if (!command || (needsName && !name) || (!needsName && command !== 'list'))
    throw new UserError(USAGE);

  const config = loadConfig();
  const db = await openDatabase(databaseLocation(config));
  // With MQTT_URL, Mosquitto's logins change with Tessera's (docs/mosquitto.md).
  const provisioning = needsName ? userProvisioning(config) : undefined;
  try {
    const users = new UserService(
      createUserRepository(db),
      provisioning,
      initialPasswordFile(config.dataDir),
    );
    switch (command) {
      case 'add':
        await users.add(name, await readPassword());
        return `User '${name}' created`;
      case 'passwd':
        await users.setPassword(name, await readPassword());
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
  } finally {
    await provisioning?.close();
    await db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (message) => process.stdout.write(`${message}\n`),
  (err: unknown) => {
    const known =
      err instanceof UserError || err instanceof ConfigError || err instanceof ProvisioningError;
    process.stderr.write(`${known ? err.message : `users: ${String(err)}`}\n`);
    // 3: done in Tessera, not on the broker; 2: refused, nothing changed.
    process.exit(err instanceof ProvisioningError ? 3 : known ? 2 : 1);
  },
);
