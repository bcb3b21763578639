import { sql } from 'kysely';
import { openDatabase, type Db } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { tempDir } from './fixtures.js';
import { createScratchPostgres, type ScratchPostgres } from './postgres.js';

/** A fresh (or emptied), migrated database for one test, and the way to let go of it afterwards. */
export interface TestDatabase {
  db: Db;
  /** A second handle (its own pool) on the same database: as another process would open it. */
  openAnother(): Promise<Db>;
  close(): Promise<void>;
}

export type DatabaseFactory = () => Promise<TestDatabase>;

/** A real SQLite file in a temp folder, opened (and migrated) as the server opens it. */
export const freshSqliteDatabase: DatabaseFactory = async () => {
  const { dir, remove } = tempDir('tessera-store-');
  const db = await openDatabase({ dataDir: dir });
  return {
    db,
    openAnother: () => openDatabase({ dataDir: dir }),
    close: async () => {
      await db.destroy();
      remove();
    },
  };
};

/**
 * The test file's own database on the test PostgreSQL (TEST_DATABASE_URL): created and migrated
 * at its first test, emptied before each (creating a database costs a second; emptying it a few
 * milliseconds), dropped when the file's tests are done (postgres-setup.ts).
 */
let filePostgres: Promise<ScratchPostgres> | undefined;

export const freshPostgresDatabase: DatabaseFactory = async () => {
  filePostgres ??= createMigratedPostgres();
  const { url } = await filePostgres;
  // The data folder is only where SQLite would be: PostgreSQL's rows are not in it.
  const db = await openDatabase({ dataDir: '', url, poolSize: 4 });
  try {
    await emptyTables(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    openAnother: () => openDatabase({ dataDir: '', url, poolSize: 4 }),
    close: () => db.destroy(),
  };
};

/** Drops the test file's PostgreSQL database, if it made one. */
export async function dropFilePostgres(): Promise<void> {
  const scratch = filePostgres;
  filePostgres = undefined;
  await (await scratch)?.drop();
}

async function createMigratedPostgres(): Promise<ScratchPostgres> {
  const scratch = await createScratchPostgres();
  try {
    await (await openDatabase({ dataDir: '', url: scratch.url, poolSize: 1 })).destroy();
    return scratch;
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

/** Every table but the migrator's, empty, its ids starting at 1 again: as a new database. */
async function emptyTables(db: Db): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
      and table_name not like 'kysely_migration%'
  `.execute(db);
  const tables = rows.map((row) => sql.id(row.name));
  await sql`truncate table ${sql.join(tables)} restart identity cascade`.execute(db);
}

/** Which store the tests of this vitest project run on: `store-postgres` sets it (vitest.config.ts). */
export const testStoreDialect: 'sqlite' | 'postgres' =
  process.env.TESSERA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The database the store's integration tier (`*.int.test.ts`) runs on. The tests know only this
 * factory and the repositories, so the same tests run on SQLite (vitest project `store`) and on
 * PostgreSQL (project `store-postgres`).
 */
export const freshDatabase: DatabaseFactory =
  testStoreDialect === 'postgres' ? freshPostgresDatabase : freshSqliteDatabase;

/** Adds a user (the owner rows the other tables point at); their id. */
export async function addOwner(db: Db, username: string): Promise<number> {
  const user = await createUserRepository(db).create(username, `hash-of-${username}`);
  return user.id;
}

/**
 * Records an HD image of a user as the HD job does once its file is stored (the file is the
 * caller's to write): for tests that place an HD file themselves instead of ordering one.
 */
export async function recordHdImage(
  db: Db,
  username: string,
  image: { filename: string; width: number; height: number; bytes: number; metadata: object },
): Promise<void> {
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('images')
    .values({
      owner_id: owner.id,
      kind: 'hd',
      filename: image.filename,
      source_image_id: null,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      metadata: JSON.stringify(image.metadata),
      created_at: new Date().toISOString(),
    })
    .execute();
}
