import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { holdPoint } from '../runtime/faults.js';
import { copyFiles } from '../files/copy-files.js';
import { createFileStore } from '../files/index.js';
import { LocalFileStore } from '../files/local-file-store.js';
import {
  BACKUP_DATABASE,
  BACKUP_FILES,
  BackupError,
  hashFiles,
  sha256OfFile,
  writeManifest,
} from './backup-manifest.js';
import { POSTGRES_METHOD, snapshotPostgres } from './backup-postgres.js';
import { describeSnapshot, leaveOutRowsWithoutFiles, snapshotSqlite } from './backup-snapshot.js';

const USAGE = `Usage: npm run backup -- --to <an empty or new folder>
Copies the database (SQLite in DATA_DIR, or PostgreSQL of DATABASE_URL) and the files (DATA_DIR's,
or the objects of FILES_URL) into that folder, with a manifest of checksums, while the server
runs. Restore with: npm run restore -- --from <folder>`;

/** Where the database and the files are, and how this backup copies each (manifest.json). */
function describeSource(config: Config) {
  return {
    database: config.databaseUrl
      ? { kind: 'postgresql' as const, method: POSTGRES_METHOD }
      : {
          kind: 'sqlite' as const,
          method: `VACUUM INTO of ${path.join(config.dataDir, BACKUP_DATABASE)} (one read transaction)`,
        },
    files: config.s3
      ? {
          kind: 's3' as const,
          method:
            `every object of each user of the database copy, in s3://${config.s3.bucket}/` +
            `${config.s3.prefix}, streamed through the file store after the database copy`,
        }
      : {
          kind: 'local' as const,
          method: `every file of each user of the database copy, in ${path.join(config.dataDir, 'files')}, after the database copy`,
        },
  };
}

function readArgs(argv: string[]): string {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { to: { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new BackupError(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (!values.to) throw new BackupError(USAGE);
  return path.resolve(values.to);
}

/** The backup folder, new or empty: a backup never mixes with what a folder held before. */
async function emptyFolder(dir: string): Promise<void> {
  const entries = await fsp.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries.length > 0) {
    throw new BackupError(`${dir} is not empty: back up into a new or empty folder`);
  }
  await fsp.mkdir(dir, { recursive: true });
}

async function run(argv: string[]): Promise<string> {
  const to = readArgs(argv);
  const config = loadConfig();
  const live = path.join(config.dataDir, BACKUP_DATABASE);
  if (!config.databaseUrl && !fs.existsSync(live)) {
    throw new BackupError(`${live} not found: DATA_DIR must be the server's data folder`);
  }
  if (path.resolve(to).startsWith(path.join(config.dataDir, path.sep))) {
    throw new BackupError('The backup folder must be outside DATA_DIR');
  }
  await emptyFolder(to);
  const started = Date.now();
  const snapshot = path.join(to, BACKUP_DATABASE);

  // The database first, then the files: every file a row names was written before its row, so
  // it is there when the copy reaches it (files written later are extra, and harmless: a start
  // indexes an LD file without a row, as after a crash). The opposite order would miss the files
  // of rows made between the two steps.
  // On PostgreSQL and an object store too: the snapshot is one transaction, and every object a
  // row names was stored before its row was committed (the same order as on local files).
  if (config.databaseUrl) await snapshotPostgres(config.databaseUrl, snapshot);
  else snapshotSqlite(live, snapshot);
  await holdPoint('backup:snapshot-taken');
  const facts = describeSnapshot(snapshot);
  const filesDir = path.join(to, BACKUP_FILES);
  const copied = await copyFiles(
    await createFileStore(config, path.join(to, '.tmp')),
    new LocalFileStore(filesDir),
    facts.owners,
    { skipVanished: true },
  );
  const leftOut = leaveOutRowsWithoutFiles(snapshot, (owner, area, name) =>
    fs.existsSync(path.join(filesDir, owner, area, name)),
  );

  const final = leftOut.length > 0 ? describeSnapshot(snapshot) : facts;
  const files = await hashFiles(filesDir, final.owners);
  const manifest = await writeManifest(to, {
    createdAt: new Date(started).toISOString(),
    source: describeSource(config),
    schema: { migration: final.migration, migrations: final.migrations },
    database: {
      file: BACKUP_DATABASE,
      bytes: (await fsp.stat(snapshot)).size,
      sha256: await sha256OfFile(snapshot),
    },
    rows: final.rows,
    files,
    leftOut,
  });
  const rows = Object.values(manifest.rows).reduce((sum, n) => sum + n, 0);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const from = [
    manifest.source.database.kind === 'postgresql' ? 'PostgreSQL (DATABASE_URL)' : config.dataDir,
    ...(config.s3 ? [`s3://${config.s3.bucket}/${config.s3.prefix}`] : []),
  ].join(' and ');
  return [
    `Backup of ${from} written to ${to} in ${seconds} s:`,
    `  database: ${rows} rows, schema at ${manifest.schema.migration}`,
    `  files:    ${files.length} (${bytes} bytes), each with its SHA-256 in manifest.json`,
    ...(leftOut.length > 0 || copied.vanished > 0
      ? [
          `  left out: ${leftOut.length} rows whose files were deleted while the backup ran` +
            ` (${copied.vanished} files removed during the copy)`,
        ]
      : []),
  ].join('\n');
}

run(process.argv.slice(2)).then(
  (summary) => process.stdout.write(`${summary}\n`),
  (err: unknown) => {
    const known = err instanceof BackupError || err instanceof ConfigError;
    process.stderr.write(`${known ? err.message : `backup: ${String(err)}`}\n`);
    process.exit(known ? 2 : 1);
  },
);
