import { ConfigError, databaseLocation, loadConfig } from '../config.js';
import {
  parseRetentionCommand,
  RetentionCommandError,
  runRetentionCommand,
} from '../cli/retention.js';
import { createFileStore } from '../files/index.js';
import { createLogger } from '../runtime/logger.js';
import { AuditLog } from '../services/audit.js';
import { HdRetentionService } from '../services/hd-retention.js';
import { createAuditRepository } from '../store/audit.js';
import { openDatabase } from '../store/database.js';
import { createHdRetentionRepository } from '../store/hd-retention.js';

/**
 * `npm run retention [-- --dry-run] [--days N]`: the HD retention policy now (docs/admin.md), on
 * the store and files the server uses. A run here and the servers' daily run may overlap: each
 * file goes once, a row marked by one is finished by either.
 */
async function run(args: string[]): Promise<string> {
  const command = parseRetentionCommand(args);
  const config = loadConfig();
  const db = await openDatabase(databaseLocation(config));
  try {
    const files = await createFileStore(config);
    const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
    const service = new HdRetentionService(
      createHdRetentionRepository(db),
      files,
      command.days ?? config.hdRetentionDays,
      log,
      // Recorded with actor 'cli', as the users command's changes are (issue 29, part 5).
      new AuditLog(createAuditRepository(db), log),
    );
    return await runRetentionCommand(command, service, new Date());
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (message) => process.stdout.write(`${message}\n`),
  (err: unknown) => {
    const known = err instanceof RetentionCommandError || err instanceof ConfigError;
    process.stderr.write(`${known ? err.message : `retention: ${String(err)}`}\n`);
    process.exit(known ? 2 : 1);
  },
);
