import { ConfigError, databaseLocation, loadConfig } from '../config.js';
import { userProvisioning, userService } from '../container-admin.js';
import { parseUsersCommand, runUsersCommand } from '../cli/users.js';
import { createFileStore } from '../files/index.js';
import { AuditLog } from '../services/audit.js';
import { ProvisioningError, UserError } from '../services/users.js';
import { createAuditRepository } from '../store/audit.js';
import { openDatabase } from '../store/database.js';

/** `npm run users`: reads the configuration and builds the user service for cli/users.ts. */
async function run(args: string[]): Promise<string> {
  const command = parseUsersCommand(args);
  const config = loadConfig();
  const db = await openDatabase(databaseLocation(config));
  // With MQTT_URL, Mosquitto's logins change with Tessera's (docs/mosquitto.md).
  const provisioning = command.changesUser ? userProvisioning(config) : undefined;
  try {
    // The same service as the admin API's: the changes are recorded, actor 'cli' (issue 29).
    const warnings = {
      warn: (detail: object, message: string) =>
        void process.stderr.write(`${message}: ${JSON.stringify(detail)}\n`),
    };
    const users = userService(
      db,
      await createFileStore(config),
      config.dataDir,
      new AuditLog(createAuditRepository(db), warnings),
      provisioning,
    );
    return await runUsersCommand(command, users);
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
