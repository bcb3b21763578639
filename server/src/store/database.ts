import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import { SQLite } from './sqlite-driver.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export { databaseDialect, type DatabaseDialect } from './dialect.js';

/** Where the database is: a PostgreSQL URL, or (no URL) the SQLite file in the data folder. */
export interface DatabaseLocation {
  dataDir: string;
  /** postgres:// or postgresql://; unset: SQLite. */
  url?: string;
  /** Connections the PostgreSQL pool keeps at most; ignored for SQLite. */
  poolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;

/** True for the URLs openDatabase opens with PostgreSQL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Opens (creating the SQLite file if needed) the database and brings its schema up to date;
 * `migrate: false` leaves the schema as it is (a backup reads a live server's database).
 */
export async function openDatabase(
  location: DatabaseLocation,
  { migrate: upgrade = true }: { migrate?: boolean } = {},
): Promise<Db> {
  if (location.url !== undefined && !isPostgresUrl(location.url))
    throw new Error('The database URL must start with postgres:// or postgresql://');
  const db = location.url
    ? openPostgres(location.url, location.poolSize ?? DEFAULT_POOL_SIZE)
    : openSqlite(location.dataDir);
  if (upgrade) await migrate(db);
  return db;
}

function openSqlite(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'tessera.sqlite'));
  // WAL lets the users CLI write while the server reads; foreign keys make deletes cascade.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
}

/** PostgreSQL's int8 (count(*), sum) as a JS number, as SQLite gives it: no row count nears 2^53. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function openPostgres(url: string, poolSize: number): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes });
  // An idle connection the server drops (a restart, a failover) must not crash the process: the
  // pool replaces it, and the next query reports any lasting trouble.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  // A connection lost while checked out (between a failed query and its release, say, when the
  // server dies) emits 'error' with no listener of the pool's on it: an uncaught exception that
  // ended every process in a database outage (issue 23, part 10). The query has failed already;
  // the pool drops the broken client on its release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; the same few hundred SQL texts recur, so keep their prepared
 * statements (a measured third of a small command's time went to preparing). Least recently used
 * statements go first.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = cache.get(source);
      if (statement) {
        cache.delete(source);
      } else {
        statement = sqlite.prepare(source);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(source, statement);
      return statement;
    },
  };
}
