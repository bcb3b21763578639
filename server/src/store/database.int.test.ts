import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreDialect } from '../testing/database.js';
import { tempDir } from '../testing/fixtures.js';
import { createScratchPostgres } from '../testing/postgres.js';
import { databaseDialect, openDatabase, type Db } from './database.js';
import { migrationProvider } from './migrations/index.js';

// Opening the database the tier runs on (vitest project store or store-postgres).

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Where a new, empty database of this project's dialect is. */
async function newLocation(): Promise<{ dataDir: string; url?: string }> {
  const data = tempDir('tessera-store-');
  cleanups.push(data.remove);
  if (testStoreDialect === 'sqlite') return { dataDir: data.dir };
  const scratch = await createScratchPostgres();
  cleanups.push(() => scratch.drop());
  return { dataDir: data.dir, url: scratch.url };
}

const opened = (db: Db) => {
  cleanups.push(() => db.destroy());
  return db;
};

describe('openDatabase', () => {
  it('opens the dialect its location names, with every migration run', async () => {
    const db = opened(await openDatabase(await newLocation()));
    expect(databaseDialect(db)).toBe(testStoreDialect);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const all = Object.keys(await migrationProvider.getMigrations());
    expect(rows.map((row) => row.name).sort()).toEqual(all.sort());
  });

  it('refuses a URL of another database, opening nothing', async () => {
    const { dataDir } = await newLocation();
    await expect(openDatabase({ dataDir, url: 'mysql://root@127.0.0.1/tessera' })).rejects.toThrow(
      /must start with postgres:\/\/ or postgresql:\/\//,
    );
  });

  it.skipIf(testStoreDialect !== 'postgres')(
    'lets servers starting together on a new PostgreSQL database migrate it once',
    async () => {
      const location = await newLocation();
      const dbs = await Promise.all(
        Array.from({ length: 3 }, () => openDatabase({ ...location, poolSize: 2 })),
      );
      dbs.forEach(opened);
      const { rows } = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(
        dbs[0] as Db,
      );
      expect(rows[0]?.n).toBe(Object.keys(await migrationProvider.getMigrations()).length);
    },
  );
});
