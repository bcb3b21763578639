import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Which database a Kysely instance speaks to: the few statements that differ branch on it. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** The dialect of db (or of a transaction, or of the Kysely a migration is given). */
export function databaseDialect<DB>(db: Kysely<DB>): DatabaseDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * An integer primary key the database numbers: SQLite's AUTOINCREMENT (ids never reused), an
 * identity column on PostgreSQL (by default, so a row may still be written with its id).
 */
export function numberedPrimaryKey(db: Kysely<unknown>) {
  return (column: ColumnDefinitionBuilder) =>
    databaseDialect(db) === 'postgres'
      ? column.primaryKey().generatedByDefaultAsIdentity()
      : column.primaryKey().autoIncrement();
}
