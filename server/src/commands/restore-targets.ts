import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { FileStore } from '../files/file-store.js';
import { createFileStore } from '../files/index.js';
import { copyRows } from '../store/copy-rows.js';
import { openDatabase, type Db } from '../store/database.js';
import {
  BACKUP_DATABASE,
  BackupError,
  type Manifest,
  type ManifestFile,
} from './backup-manifest.js';

// A restore onto PostgreSQL (DATABASE_URL) and an object store (FILES_URL): the backup is the same
// folder whatever it was taken from (a SQLite file and files); these put it into those stores.

/** The tables a restore fills: Kysely's own bookkeeping is the migrations' business. */
function dataTables(manifest: Manifest): string[] {
  return Object.keys(manifest.rows).filter((table) => !table.startsWith('kysely_'));
}

/**
 * The PostgreSQL of DATABASE_URL, brought to this Tessera's schema first (as a server start
 * would), and refused unless every table is empty: a restore never merges into live data.
 */
export async function openEmptyPostgres(url: string, manifest: Manifest): Promise<Db> {
  const db = await openDatabase({ dataDir: '', url, poolSize: 2 });
  try {
    const held: string[] = [];
    for (const table of dataTables(manifest)) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      if (Number(rows[0]?.n ?? 0) > 0) held.push(`${table} (${rows[0]?.n} rows)`);
    }
    if (held.length > 0) {
      throw new BackupError(
        `The PostgreSQL database of DATABASE_URL is not empty: it holds ${held.join(', ')}. A ` +
          'restore fills an empty database only: create a new one (createdb) and point ' +
          'DATABASE_URL at it',
      );
    }
    return db;
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/** The object store of FILES_URL, refused if it holds any file of the backup's users. */
export async function openEmptyObjectStore(
  config: Config,
  owners: readonly string[],
  scratchRoot: string,
): Promise<FileStore> {
  const store = await createFileStore(config, scratchRoot);
  const { FILE_AREAS } = await import('../files/places.js');
  for (const owner of owners) {
    for (const area of FILE_AREAS) {
      const held = await store.list(owner, area);
      if (held.length > 0) {
        throw new BackupError(
          `The object store of FILES_URL (s3://${config.s3?.bucket}/${config.s3?.prefix}) is ` +
            `not empty: it holds ${owner}/${area}/ (${held.length} objects). A restore fills ` +
            'an empty prefix only: set FILES_URL to a new prefix or bucket',
        );
      }
    }
  }
  return store;
}

/** The objects whose bytes, read back from the store, are not those the manifest names. */
export async function damagedObjects(
  store: FileStore,
  files: readonly ManifestFile[],
): Promise<string[]> {
  const damaged: string[] = [];
  for (const file of files) {
    const [owner = '', area, ...rest] = file.path.split('/');
    const hash = createHash('sha256');
    const read = await pipeline(
      store.read(owner, area as Parameters<FileStore['read']>[1], rest.join('/')),
      hash,
    ).then(
      () => true,
      () => false,
    );
    if (!read) damaged.push(`${file.path} (missing)`);
    else if (hash.digest('hex') !== file.sha256) damaged.push(`${file.path} (bytes differ)`);
  }
  return damaged;
}

/**
 * Every row of the backup's database into PostgreSQL, in one transaction: a restore that stops
 * midway leaves the database empty, and the next attempt starts over. Ids, sequences and running
 * jobs are kept as they were (a running job has no live lease, so the next server claims it).
 */
export async function restoreRowsInto(
  target: Db,
  backupDatabase: string,
  stagingDir: string,
): Promise<void> {
  await fsp.mkdir(stagingDir, { recursive: true });
  // A copy: opening the backup's own file would change it (its schema brought up to date).
  await fsp.copyFile(backupDatabase, path.join(stagingDir, BACKUP_DATABASE));
  const source = await openDatabase({ dataDir: stagingDir });
  try {
    await target
      .transaction()
      .execute((trx) => copyRows(source, trx, { everyTable: true, asIs: true }));
  } finally {
    await source.destroy();
  }
}
