import path from 'node:path';
import { sql } from 'kysely';
import { copyRows } from '../store/copy-rows.js';
import { openDatabase } from '../store/database.js';
import { SQLite } from '../store/sqlite-driver.js';
import { BackupError } from './backup-manifest.js';

/** How the manifest says the database was copied. */
export const POSTGRES_METHOD =
  'every table read inside one REPEATABLE READ READ ONLY transaction of PostgreSQL ' +
  '(one moment of the database, writers not held up), written into a SQLite file of the same schema';

/**
 * A consistent copy of a live PostgreSQL database, through Tessera's own database layer (no
 * client tools needed): every row of every table of the schema, read in one REPEATABLE READ
 * READ ONLY transaction, so the copy is the database as one moment left it. The rows go into a
 * SQLite file with the same schema (`target`, the backup's database file): one backup format for
 * every install, restorable onto SQLite or PostgreSQL.
 */
export async function snapshotPostgres(url: string, target: string): Promise<void> {
  // The backup reads the live schema as it is: upgrading it is the server's start's business.
  const live = await openDatabase(
    { dataDir: path.dirname(target), url, poolSize: 1 },
    {
      migrate: false,
    },
  );
  // The copy is made at this Tessera's schema; the live one must be at the same level.
  const copy = await openDatabase({ dataDir: path.dirname(target) });
  try {
    const copyMigrations = await migrationsOf(copy);
    await live
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const liveMigrations = await migrationsOf(trx).catch(() => []);
        if (liveMigrations.join() !== copyMigrations.join()) {
          throw new BackupError(
            `The PostgreSQL database is at migration ${liveMigrations.at(-1) ?? 'none'}, this ` +
              `Tessera at ${copyMigrations.at(-1) ?? 'none'}: back up with the version of ` +
              'Tessera the server runs',
          );
        }
        await copyRows(trx, copy, { everyTable: true, asIs: true });
      });
  } finally {
    await live.destroy();
    await copy.destroy();
  }
  // One self-contained file, as VACUUM INTO makes: no write-ahead log beside it.
  const file = new SQLite(target, { fileMustExist: true });
  try {
    file.pragma('journal_mode = DELETE');
  } finally {
    file.close();
  }
}

async function migrationsOf(db: Parameters<typeof copyRows>[0]): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name).sort();
}
