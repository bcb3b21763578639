import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { copyFiles } from '../files/copy-files.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { migrationProvider } from '../store/migrations/index.js';
import {
  BACKUP_DATABASE,
  BACKUP_FILES,
  BackupError,
  damagedEntries,
  readManifest,
  type Manifest,
} from './backup-manifest.js';

const USAGE = `Usage: npm run restore -- --from <a folder npm run backup wrote>
Rebuilds an empty install in DATA_DIR from that backup, after checking every file against the
backup's checksums. Start the server afterwards.`;

/** Where a restore puts its copy before moving it into place; a rerun removes what one left. */
const STAGING = '.restoring';

function readArgs(argv: string[]): string {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { from: { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new BackupError(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (!values.from) throw new BackupError(USAGE);
  return path.resolve(values.from);
}

function refuseExternalStores(config: Config): void {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: npm run restore rebuilds a SQLite install (DATA_DIR) only. Restore ' +
        'PostgreSQL with pg_restore; see docs/deploy.md, "Backups"',
    );
  }
  if (config.s3) {
    throw new BackupError(
      'FILES_URL is set: npm run restore writes local files (DATA_DIR/files) only. Unset it to ' +
        'restore, then move the files into the bucket with npm run migrate-store; see docs/deploy.md',
    );
  }
}

/** A restore only ever fills an empty install: it never merges into, or replaces, live data. */
async function refuseNonEmpty(dataDir: string): Promise<void> {
  const found: string[] = [];
  for (const name of [BACKUP_DATABASE, `${BACKUP_DATABASE}-wal`]) {
    if (await exists(path.join(dataDir, name))) found.push(name);
  }
  const files = await fsp.readdir(path.join(dataDir, BACKUP_FILES)).catch(() => []);
  if (files.length > 0) found.push(`${BACKUP_FILES}/ (${files.length} entries)`);
  if (found.length > 0) {
    throw new BackupError(
      `DATA_DIR (${dataDir}) is not empty: it holds ${found.join(', ')}. A restore rebuilds an ` +
        'empty install only: give it a new DATA_DIR, or move these away first (stop the server)',
    );
  }
}

async function refuseUnknownSchema(manifest: Manifest): Promise<void> {
  const known = Object.keys(await migrationProvider.getMigrations());
  if (!known.includes(manifest.schema.migration)) {
    throw new BackupError(
      `This backup's database is at migration ${manifest.schema.migration}, which this version ` +
        `of Tessera does not know: restore it with Tessera ${manifest.tesseraVersion} or later`,
    );
  }
}

async function verify(dir: string, manifest: Manifest, what: string): Promise<void> {
  const damaged = await damagedEntries(dir, manifest);
  if (damaged.length === 0) return;
  const shown = damaged.slice(0, 10).join(', ');
  const more = damaged.length > 10 ? ` and ${damaged.length - 10} more` : '';
  throw new BackupError(
    `${what}: ${damaged.length} of its files do not match manifest.json: ${shown}${more}`,
  );
}

async function run(argv: string[]): Promise<string> {
  const from = readArgs(argv);
  const config = loadConfig();
  refuseExternalStores(config);
  const manifest = await readManifest(from);
  await refuseUnknownSchema(manifest);
  const dataDir = config.dataDir;
  await refuseNonEmpty(dataDir);
  const started = Date.now();

  // Nothing is written before the backup is known whole.
  await verify(from, manifest, `The backup in ${from} is damaged`);

  const staging = path.join(dataDir, STAGING);
  await fsp.rm(staging, { recursive: true, force: true });
  await fsp.mkdir(staging, { recursive: true });
  const owners = [...new Set(manifest.files.map((f) => f.path.split('/')[0] ?? ''))];
  await copyFiles(
    new LocalFileStore(path.join(from, BACKUP_FILES)),
    new LocalFileStore(path.join(staging, BACKUP_FILES)),
    owners,
  );
  await fsp.copyFile(path.join(from, BACKUP_DATABASE), path.join(staging, BACKUP_DATABASE));
  await syncFile(path.join(staging, BACKUP_DATABASE));
  // The copy is checked too: a disk that corrupts what it writes is found now, not in a year.
  await verify(staging, manifest, 'The restored copy');

  // The files first, the database last: a restore stopped in between has no database, and the
  // next attempt is refused as not empty (files/), so nothing half-restored starts unnoticed.
  await fsp.rm(path.join(dataDir, BACKUP_FILES), { recursive: true, force: true });
  await fsp.rename(path.join(staging, BACKUP_FILES), path.join(dataDir, BACKUP_FILES));
  await fsp.rename(path.join(staging, BACKUP_DATABASE), path.join(dataDir, BACKUP_DATABASE));
  await syncFile(dataDir);
  await fsp.rm(staging, { recursive: true, force: true });

  const rows = Object.values(manifest.rows).reduce((sum, n) => sum + n, 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return [
    `Restored the backup of ${manifest.createdAt} (Tessera ${manifest.tesseraVersion}) into ${dataDir} in ${seconds} s:`,
    `  database: ${rows} rows, schema at ${manifest.schema.migration}`,
    `  files:    ${manifest.files.length}, each checked against its SHA-256`,
    'Start the server (npm start): it brings the schema up to date and requeues the jobs that were running.',
  ].join('\n');
}

async function exists(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    () => true,
    () => false,
  );
}

/** Flushes a file or folder to disk, so a crash right after the restore keeps it. */
async function syncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

run(process.argv.slice(2)).then(
  (summary) => process.stdout.write(`${summary}\n`),
  (err: unknown) => {
    const known = err instanceof BackupError || err instanceof ConfigError;
    process.stderr.write(`${known ? err.message : `restore: ${String(err)}`}\n`);
    process.exit(known ? 2 : 1);
  },
);
