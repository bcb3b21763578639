import crypto from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests create their databases on (each test drops its own again). */
export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database created for one test on the test PostgreSQL: its URL, and the way to drop it. */
export interface ScratchPostgres {
  url: string;
  drop(): Promise<void>;
}

/** Why the test PostgreSQL cannot be used, or undefined when it answers. */
export async function postgresUnavailable(): Promise<string | undefined> {
  try {
    await withAdmin(() => Promise.resolve());
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Creates an empty database with a name of its own (tests run in parallel workers). */
export async function createScratchPostgres(): Promise<ScratchPostgres> {
  const name = `tessera_test_${process.pid}_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // WITH (FORCE): a connection a failed test left open does not keep the database alive.
    drop: () => withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`)),
  };
}

/**
 * Drops the test databases of test processes that are gone (a run killed before its cleanup):
 * the names hold the process id. Another run's databases, on a live process, stay.
 */
export async function dropAbandonedTestDatabases(): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ name: string }>(
      "select datname as name from pg_database where datname like 'tessera\\_test\\_%'",
    );
    for (const { name } of rows) {
      const pid = Number(/^tessera_test_(\d+)_[0-9a-f]+$/.exec(name)?.[1]);
      if (!pid || processAlive(pid)) continue;
      // Another test file may be dropping it at the same moment: either drop will do.
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    }
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function withAdmin(use: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: 5000,
  });
  await admin.connect();
  try {
    await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Whether the PostgreSQL tests must be skipped: the test PostgreSQL does not answer. Says so with
 * a notice, except in CI (CI=true), where a missing PostgreSQL throws: CI requires those tests.
 */
export async function postgresMissing(): Promise<boolean> {
  const reason = await postgresUnavailable();
  if (reason === undefined) return false;
  const where = new URL(TEST_POSTGRES_URL).host;
  if (process.env.CI === 'true')
    throw new Error(`PostgreSQL at ${where} is not reachable (${reason}): CI requires it`);
  console.warn(
    `\n*** PostgreSQL tests SKIPPED: ${where} not reachable (${reason}); set TEST_DATABASE_URL ***\n`,
  );
  return true;
}
