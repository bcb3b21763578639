import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { copyFiles } from '../files/copy-files.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { copyRows } from '../store/copy-rows.js';
import { openDatabase } from '../store/database.js';
import { localTargetDirs, openMigrationTarget } from './migrate-store-target.js';

const USAGE = `Usage: npm run migrate-store -- --from <DATA_DIR of the old install> [--batch <rows>]
Copies the SQLite database and the local files of that folder into the stores the server's
settings name (DATABASE_URL, FILES_URL; see docs/scale-out.md). Rows keep their ids; a rerun
skips what is already there and continues.`;

/** A refusal with a message for the operator; nothing was changed. */
class MigrateError extends Error {
  override name = 'MigrateError';
}

function readArgs(argv: string[]): { from: string; batchSize: number } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, batch: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    throw new MigrateError(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (!values.from) throw new MigrateError(USAGE);
  const batchSize = Number(values.batch ?? 500);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 5000) {
    throw new MigrateError('--batch must be a whole number from 1 to 5000');
  }
  return { from: path.resolve(values.from), batchSize };
}

/** The real path of a folder, so that two spellings of one folder compare equal. */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

async function run(argv: string[]): Promise<string> {
  const { from, batchSize } = readArgs(argv);
  const sqliteFile = path.join(from, 'tessera.sqlite');
  // openDatabase would make an empty database there: a wrong --from must change nothing.
  if (!fs.existsSync(sqliteFile)) throw new MigrateError(`${sqliteFile} not found`);

  const config = loadConfig();
  const source = realDir(from);
  const localDirs = localTargetDirs(config);
  if (localDirs.database !== undefined && realDir(localDirs.database) === source) {
    throw new MigrateError(
      `The target database is the source (${from}): set DATABASE_URL, or a DATA_DIR other than --from`,
    );
  }
  if (localDirs.files !== undefined && realDir(localDirs.files) === source) {
    throw new MigrateError(
      `The target files are the source's (${from}): set FILES_URL, or a DATA_DIR other than --from`,
    );
  }

  const started = Date.now();
  const target = await openMigrationTarget(config);
  // The source is brought to the current schema first, as a server start would.
  const sourceDb = await openDatabase({ dataDir: from });
  try {
    const print = (line: string) => process.stdout.write(`${line}\n`);
    print(`from: SQLite and local files in ${from}`);
    print(`to:   ${target.describe.database}; ${target.describe.files}`);
    const tables = await copyRows(sourceDb, target.db, {
      batchSize,
      onProgress: (count) => print(`  ${count.table}: ${count.read} rows (${count.inserted} new)`),
    });
    const owners = (await sourceDb.selectFrom('users').select('username').execute()).map(
      (user) => user.username,
    );
    let lastPrinted = 0;
    const files = await copyFiles(
      new LocalFileStore(path.join(from, 'files')),
      target.files,
      owners,
      {
        onProgress: (count) => {
          // A line every 100 files: a large install has hundreds of thousands.
          if (count.seen - lastPrinted < 100) return;
          lastPrinted = count.seen;
          print(`  files: ${count.seen} (${count.copied} copied, ${count.skipped} already there)`);
        },
      },
    );
    const rows = tables.reduce((sum, t) => sum + t.read, 0);
    const inserted = tables.reduce((sum, t) => sum + t.inserted, 0);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return [
      `Done in ${seconds} s:`,
      `  rows:  ${rows} (${inserted} copied, ${rows - inserted} already there)`,
      `  files: ${files.seen} (${files.copied} copied, ${files.bytes} bytes; ${files.skipped} already there)`,
    ].join('\n');
  } finally {
    await sourceDb.destroy();
    await target.db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (summary) => process.stdout.write(`${summary}\n`),
  (err: unknown) => {
    const known = err instanceof MigrateError || err instanceof ConfigError;
    process.stderr.write(`${known ? err.message : `migrate-store: ${String(err)}`}\n`);
    process.exit(known ? 2 : 1);
  },
);
