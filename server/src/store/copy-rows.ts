import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { faultPoint } from '../runtime/faults.js';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/** A table the copy knows: its primary key, and the serial column a sequence numbers. */
interface TableCopy {
  table: keyof Database;
  primaryKey: readonly string[];
  serial?: string;
  /** What a row becomes in the target, when not itself. */
  adapt?: (row: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A job the old install left running was interrupted when it stopped; its server would have put
 * it back in the queue at its next start. The new stores have no such start for it (on
 * PostgreSQL a running job waits for its lease, which it never had), so it arrives queued.
 */
export function requeueInterrupted(row: Record<string, unknown>): Record<string, unknown> {
  return row.status === 'in_progress' ? { ...row, status: 'queued', percent: 0 } : row;
}

/**
 * Every table, parents before children, so each row's foreign keys already point at copied rows.
 * Images refer to images (an HD image to its LD source, made before it): in id order, the
 * source is always copied first.
 */
export const TABLES_IN_DEPENDENCY_ORDER: readonly TableCopy[] = [
  { table: 'users', primaryKey: ['id'], serial: 'id' },
  { table: 'sessions', primaryKey: ['token_hash'] },
  { table: 'api_tokens', primaryKey: ['id'], serial: 'id' },
  { table: 'credential_changes', primaryKey: ['seq'], serial: 'seq' },
  { table: 'images', primaryKey: ['id'], serial: 'id' },
  { table: 'tags', primaryKey: ['owner_id', 'id'] },
  { table: 'image_tags', primaryKey: ['image_id', 'tag_id'] },
  { table: 'jobs', primaryKey: ['id'], serial: 'id', adapt: requeueInterrupted },
  { table: 'job_queue_pauses', primaryKey: ['owner_id', 'kind'] },
  { table: 'material_maps', primaryKey: ['id'], serial: 'id' },
  { table: 'input_references', primaryKey: ['seq'], serial: 'seq' },
  { table: 'print_files', primaryKey: ['id'], serial: 'id' },
  { table: 'audit_events', primaryKey: ['id'], serial: 'id' },
  { table: 'retention_runs', primaryKey: ['day'] },
  // A delivery being sent when the copy was made goes again once its lease runs out (0027).
  { table: 'webhook_endpoints', primaryKey: ['id'], serial: 'id' },
  { table: 'webhook_deliveries', primaryKey: ['id'], serial: 'id' },
  { table: 'webhook_attempts', primaryKey: ['id'], serial: 'id' },
];

/**
 * The tables of what is happening now (login throttles, ZIP download tickets, the processes
 * running): migrate-store leaves them behind, a backup copies them too, so that it holds every
 * row of the schema.
 */
const TRANSIENT_TABLES: readonly TableCopy[] = [
  { table: 'rate_limits', primaryKey: ['key'] },
  { table: 'zip_downloads', primaryKey: ['token_hash'] },
  { table: 'instances', primaryKey: ['name'] },
];

export interface TableCount {
  table: string;
  /** Rows of the source. */
  read: number;
  /** Rows this run inserted; the others were in the target already (an earlier run's). */
  inserted: number;
}

export interface CopyRowsOptions {
  /** Rows per INSERT: each batch is one statement, so a crash never leaves half of one. */
  batchSize?: number;
  /** Called after each batch. */
  onProgress?: (count: TableCount) => void;
  /** Every table of the schema, the transient ones too (a backup and its restore). */
  everyTable?: boolean;
  /**
   * Rows exactly as read, a running job included (a backup and its restore: a job without a
   * live lease is claimed again by the next server anyway, see jobs.ts).
   */
  asIs?: boolean;
}

/** The tables without their types: the copy moves rows as they are, column for column. */
type Untyped = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Copies every row of every table from `source` to `target`, ids kept. A row whose primary key
 * the target already holds is skipped, so a run that was interrupted continues where it stopped
 * when run again. Afterwards, on PostgreSQL, each serial column's sequence is moved past the
 * highest id, so new rows do not collide with copied ones.
 */
export async function copyRows(
  source: Db,
  target: Db,
  options: CopyRowsOptions = {},
): Promise<TableCount[]> {
  const batchSize = options.batchSize ?? 500;
  const from = source as unknown as Untyped;
  const to = target as unknown as Untyped;
  const counts: TableCount[] = [];
  let copiedSoFar = 0;
  const tables = options.everyTable
    ? [...TABLES_IN_DEPENDENCY_ORDER, ...TRANSIENT_TABLES]
    : TABLES_IN_DEPENDENCY_ORDER;
  for (const { table, primaryKey, adapt: adaptRow } of tables) {
    const adapt = options.asIs ? undefined : adaptRow;
    const count: TableCount = { table, read: 0, inserted: 0 };
    for await (const rows of pages(from, table, primaryKey, batchSize)) {
      const batch = adapt ? rows.map(adapt) : rows;
      const result = await to
        .insertInto(table)
        .values(batch)
        .onConflict((conflict) => conflict.columns(primaryKey as string[]).doNothing())
        .executeTakeFirst();
      count.read += batch.length;
      count.inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
      copiedSoFar += batch.length;
      options.onProgress?.({ ...count });
      // The crash test stops the copy here, after a given number of rows.
      faultPoint(`migrate-store:rows:${copiedSoFar}`);
    }
    counts.push(count);
  }
  if (isPostgres(target)) await resetSequences(target);
  return counts;
}

/**
 * The rows of a table in primary-key order, a page at a time, each page starting after the
 * last key of the one before: PostgreSQL streams only through a cursor package the project does
 * not carry, and inside one transaction (a backup's snapshot) the pages add up to one moment.
 */
async function* pages(
  db: Untyped,
  table: string,
  primaryKey: readonly string[],
  size: number,
): AsyncGenerator<Record<string, unknown>[]> {
  let after: Record<string, unknown> | undefined;
  for (;;) {
    let query = db.selectFrom(table).selectAll();
    if (after) {
      const last = after;
      const keys = sql.join(primaryKey.map((column) => sql.ref(column)));
      const values = sql.join(primaryKey.map((column) => last[column]));
      query = query.where(sql<boolean>`(${keys}) > (${values})`);
    }
    for (const column of primaryKey) query = query.orderBy(column);
    const rows = await query.limit(size).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows.at(-1);
  }
}

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Moves each serial column's sequence to the column's highest value (1 on an empty table). */
async function resetSequences(db: Db): Promise<void> {
  for (const { table, serial } of TABLES_IN_DEPENDENCY_ORDER) {
    if (!serial) continue;
    await sql`
      select setval(
        pg_get_serial_sequence(${table}, ${serial}),
        coalesce((select max(${sql.ref(serial)}) from ${sql.table(table)}), 1),
        (select max(${sql.ref(serial)}) from ${sql.table(table)}) is not null
      )`.execute(db);
  }
}
