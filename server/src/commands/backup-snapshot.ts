import { SQLite } from '../store/sqlite-driver.js';
import type { FileArea } from '../files/file-store.js';
import type { LeftOutRow } from './backup-manifest.js';

/**
 * A consistent copy of a SQLite database that a server may be writing: `VACUUM INTO` reads the
 * whole database inside one read transaction (WAL: writers go on meanwhile, nothing waits for
 * the copy), so the copy is the database as one moment left it, never half of a write.
 */
export function snapshotSqlite(liveFile: string, target: string): void {
  const live = new SQLite(liveFile, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    live.prepare('VACUUM INTO ?').run(target);
  } finally {
    live.close();
  }
}

export interface SnapshotFacts {
  /** The last migration applied, and how many were. */
  migration: string;
  migrations: number;
  rows: Record<string, number>;
  /** The users, whose file areas the backup copies. */
  owners: string[];
}

export function describeSnapshot(file: string): SnapshotFacts {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const applied = db
      .prepare('select name from kysely_migration order by name')
      .pluck()
      .all() as string[];
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .pluck()
      .all() as string[];
    const rows: Record<string, number> = {};
    for (const table of tables.sort()) {
      rows[table] = db.prepare(`select count(*) from "${table}"`).pluck().get() as number;
    }
    return {
      migration: applied.at(-1) ?? 'none',
      migrations: applied.length,
      rows,
      owners: db.prepare('select username from users order by username').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

type HasFile = (owner: string, area: FileArea, name: string) => boolean;

/**
 * After the files are copied: removes from the snapshot the rows whose file the copy did not
 * find. Every file a row names was written before its row (docs/reliability.md), so it existed
 * when the snapshot was taken; one missing now was removed since, by a deletion of that row that
 * ran during the backup. Leaving the row out gives the state in which that deletion came just
 * before the snapshot: still one the server could have been in. Foreign keys cascade as the
 * server's own deletion does (tags, maps of the image).
 */
export function leaveOutRowsWithoutFiles(snapshotFile: string, hasFile: HasFile): LeftOutRow[] {
  const db = new SQLite(snapshotFile, { fileMustExist: true });
  db.pragma('foreign_keys = ON');
  const leftOut: LeftOutRow[] = [];
  try {
    db.transaction(() => {
      const leaveOut = leaveOutFrom(db, leftOut);
      leaveOut<{ kind: 'ld' | 'hd' }>('images', 'id', ['kind'], (image) =>
        hasFile(image.owner, image.kind, image.filename),
      );
      leaveOut<{ preview_filename: string }>(
        'material_maps',
        'id',
        ['preview_filename'],
        (map) =>
          hasFile(map.owner, 'maps', map.filename) &&
          hasFile(map.owner, 'maps', map.preview_filename),
      );
      leaveOut('print_files', 'id', [], (print) => hasFile(print.owner, 'print', print.filename));
      leaveOut('input_references', 'seq', [], (reference) =>
        hasFile(reference.owner, 'input', reference.filename),
      );
    })();
  } finally {
    db.close();
  }
  return leftOut;
}

/** A row of a table whose file (or files) a user's area holds: its key, owner and file name. */
interface FileRow {
  key: number;
  owner: string;
  filename: string;
}

/**
 * Deletes from a table of the snapshot, in key order, the rows `isWhole` finds a file missing
 * for, and adds them to `leftOut`. `extra` are the other columns `isWhole` reads.
 */
function leaveOutFrom(db: InstanceType<typeof SQLite>, leftOut: LeftOutRow[]) {
  return <Extra extends object = object>(
    table: 'images' | 'material_maps' | 'print_files' | 'input_references',
    key: 'id' | 'seq',
    extra: readonly (keyof Extra & string)[],
    isWhole: (row: FileRow & Extra) => boolean,
  ): void => {
    const columns = ['filename', ...extra].map((column) => `, t.${column}`).join('');
    const rows = db
      .prepare(
        `select t.${key} as key, u.username as owner${columns}
           from ${table} t join users u on u.id = t.owner_id order by t.${key}`,
      )
      .all() as (FileRow & Extra)[];
    const remove = db.prepare(`delete from ${table} where ${key} = ?`);
    for (const row of rows) {
      if (isWhole(row)) continue;
      remove.run(row.key);
      leftOut.push({ table, owner: row.owner, filename: row.filename });
    }
  };
}
