import path from 'node:path';
import { databaseLocation, type Config } from '../config.js';
import type { FileStore } from '../files/file-store.js';
import { createFileStore } from '../files/index.js';
import { openDatabase, type Db } from '../store/database.js';

/** Where `npm run migrate-store` writes: the stores a server with the same settings opens. */
export interface MigrationTarget {
  db: Db;
  files: FileStore;
  /** For the progress lines: which database and which files. */
  describe: { database: string; files: string };
}

/**
 * The folders of this machine the target keeps its database or its files in (none for
 * PostgreSQL or an object store), read from the settings alone: the check that the target is
 * not the source comes before anything is opened (opening SQLite creates its file).
 */
export function localTargetDirs(config: Config): { database?: string; files?: string } {
  return {
    ...(config.databaseUrl ? {} : { database: config.dataDir }),
    ...(config.s3 ? {} : { files: config.dataDir }),
  };
}

/** The target as the server's container opens it: DATABASE_URL and FILES_URL, or DATA_DIR's. */
export async function openMigrationTarget(config: Config): Promise<MigrationTarget> {
  const db = await openDatabase(databaseLocation(config));
  return {
    db,
    files: await createFileStore(config),
    describe: {
      database: config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`,
      files: config.s3
        ? `objects in s3://${config.s3.bucket}/${config.s3.prefix}`
        : `local files in ${path.join(config.dataDir, 'files')}`,
    },
  };
}
