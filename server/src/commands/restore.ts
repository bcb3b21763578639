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
import {
  damagedObjects,
  openEmptyObjectStore,
  openEmptyPostgres,
  restoreRowsInto,
} from './restore-targets.js';

const USAGE = `Usage: npm run restore -- --from <a folder npm run backup wrote>
Rebuilds an empty install from that backup, after checking every file against the backup's
checksums: the database into DATA_DIR's SQLite file or the empty PostgreSQL of DATABASE_URL, the
files into DATA_DIR/files or the empty prefix of FILES_URL. Start the server afterwards.`;

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

/** A restore only ever fills an empty install: it never merges into, or replaces, live data. */
async function refuseNonEmpty(dataDir: string, config: Config): Promise<void> {
  const found: string[] = [];
  for (const name of config.databaseUrl ? [] : [BACKUP_DATABASE, `${BACKUP_DATABASE}-wal`]) {
    if (await exists(path.join(dataDir, name))) found.push(name);
  }
  const files = config.s3
    ? []
    : await fsp.readdir(path.join(dataDir, BACKUP_FILES)).catch(() => []);
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

async function verify(
  dir: string,
  manifest: Parameters<typeof damagedEntries>[1],
  what: string,
): Promise<void> {
  await refuseDamaged(await damagedEntries(dir, manifest), what);
}

async function refuseDamaged(damaged: string[], what: string): Promise<void> {
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
  const manifest = await readManifest(from);
  await refuseUnknownSchema(manifest);
  const dataDir = config.dataDir;
  await refuseNonEmpty(dataDir, config);
  const owners = [...new Set(manifest.files.map((f) => f.path.split('/')[0] ?? ''))];
  const staging = path.join(dataDir, STAGING);
  const postgres = config.databaseUrl
    ? await openEmptyPostgres(config.databaseUrl, manifest)
    : undefined;
  try {
    const objects = config.s3
      ? await openEmptyObjectStore(config, owners, path.join(staging, 'tmp'))
      : undefined;
    const started = Date.now();

    // Nothing is written before the backup is known whole.
    await verify(from, manifest, `The backup in ${from} is damaged`);
    await fsp.rm(staging, { recursive: true, force: true });
    await fsp.mkdir(staging, { recursive: true });

    // The files first, the database last: a restore stopped in between has no rows, and the
    // next attempt is refused as not empty (the files), so nothing half-restored starts unnoticed.
    const backupFiles = new LocalFileStore(path.join(from, BACKUP_FILES));
    if (objects) {
      await copyFiles(backupFiles, objects, owners);
      // Read back from the store: what it keeps is checked, not what was sent.
      await refuseDamaged(await damagedObjects(objects, manifest.files), 'The restored objects');
    } else {
      await copyFiles(backupFiles, new LocalFileStore(path.join(staging, BACKUP_FILES)), owners);
      await verify(staging, { ...manifest, database: undefined }, 'The restored copy');
      await fsp.rm(path.join(dataDir, BACKUP_FILES), { recursive: true, force: true });
      await fsp.rename(path.join(staging, BACKUP_FILES), path.join(dataDir, BACKUP_FILES));
    }
    if (postgres) {
      await restoreRowsInto(
        postgres,
        path.join(from, BACKUP_DATABASE),
        path.join(staging, 'database'),
      );
    } else {
      await fsp.copyFile(path.join(from, BACKUP_DATABASE), path.join(staging, BACKUP_DATABASE));
      await syncFile(path.join(staging, BACKUP_DATABASE));
      // The copy is checked too: a disk that corrupts what it writes is found now, not in a year.
      await verify(staging, { ...manifest, files: [] }, 'The restored copy');
      await fsp.rename(path.join(staging, BACKUP_DATABASE), path.join(dataDir, BACKUP_DATABASE));
    }
    await syncFile(dataDir);
    await fsp.rm(staging, { recursive: true, force: true });

    const rows = Object.values(manifest.rows).reduce((sum, n) => sum + n, 0);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const into = [
      postgres ? 'PostgreSQL (DATABASE_URL)' : dataDir,
      ...(config.s3 ? [`s3://${config.s3.bucket}/${config.s3.prefix}`] : []),
    ].join(' and ');
    return [
      `Restored the backup of ${manifest.createdAt} (Tessera ${manifest.tesseraVersion}) into ${into} in ${seconds} s:`,
      `  database: ${rows} rows, schema at ${manifest.schema.migration}`,
      `  files:    ${manifest.files.length}, each checked against its SHA-256`,
      'Start the server (npm start): it brings the schema up to date and requeues the jobs that were running.',
    ].join('\n');
  } finally {
    await postgres?.destroy();
  }
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
