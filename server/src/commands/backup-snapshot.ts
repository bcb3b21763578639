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
      const images = db
        .prepare(
          `select i.id, u.username as owner, i.kind, i.filename
             from images i join users u on u.id = i.owner_id order by i.id`,
        )
        .all() as { id: number; owner: string; kind: 'ld' | 'hd'; filename: string }[];
      for (const image of images) {
        if (hasFile(image.owner, image.kind, image.filename)) continue;
        db.prepare('delete from images where id = ?').run(image.id);
        leftOut.push({ table: 'images', owner: image.owner, filename: image.filename });
      }
      const maps = db
        .prepare(
          `select m.id, u.username as owner, m.filename, m.preview_filename
             from material_maps m join users u on u.id = m.owner_id order by m.id`,
        )
        .all() as { id: number; owner: string; filename: string; preview_filename: string }[];
      for (const map of maps) {
        if (
          hasFile(map.owner, 'maps', map.filename) &&
          hasFile(map.owner, 'maps', map.preview_filename)
        )
          continue;
        db.prepare('delete from material_maps where id = ?').run(map.id);
        leftOut.push({ table: 'material_maps', owner: map.owner, filename: map.filename });
      }
      const prints = db
        .prepare(
          `select p.id, u.username as owner, p.filename
             from print_files p join users u on u.id = p.owner_id order by p.id`,
        )
        .all() as { id: number; owner: string; filename: string }[];
      for (const print of prints) {
        if (hasFile(print.owner, 'print', print.filename)) continue;
        db.prepare('delete from print_files where id = ?').run(print.id);
        leftOut.push({ table: 'print_files', owner: print.owner, filename: print.filename });
      }
      const references = db
        .prepare(
          `select r.seq, u.username as owner, r.filename
             from input_references r join users u on u.id = r.owner_id order by r.seq`,
        )
        .all() as { seq: number; owner: string; filename: string }[];
      for (const reference of references) {
        if (hasFile(reference.owner, 'input', reference.filename)) continue;
        db.prepare('delete from input_references where seq = ?').run(reference.seq);
        leftOut.push({
          table: 'input_references',
          owner: reference.owner,
          filename: reference.filename,
        });
      }
    })();
  } finally {
    db.close();
  }
  return leftOut;
}
