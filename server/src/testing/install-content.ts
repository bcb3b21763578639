import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { FileStore } from '../files/file-store.js';
import { FILE_AREAS } from '../files/places.js';
import { SQLite } from '../store/sqlite-driver.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { UserService } from '../services/users.js';
import { openDatabase } from '../store/database.js';
import { createImageRepository } from '../store/images.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf } from './fixtures.js';
import { bricksPng } from './http.js';

// What the backup test makes and compares: an install's content, its rows and its files.

const NOW = '2026-11-25T09:00:00.000Z';

/** An install in use: two users, LD images with tags and stars, an HD made from one. */
export async function makeInstallContent(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir });
  const files = new LocalFileStore(path.join(dataDir, 'files'));
  try {
    const users = new UserService(createUserRepository(db));
    const images = createImageRepository(db);
    for (const [u, username] of ['alice', 'bob'].entries()) {
      await users.add(username, passwordOf(username));
      const { id: ownerId } = await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('tags')
        .values([
          { owner_id: ownerId, id: `stone-${u}`, name: 'Stone', color: '#808080', created_at: NOW },
          { owner_id: ownerId, id: `wood-${u}`, name: 'Wood', color: '#a0522d', created_at: NOW },
        ])
        .execute();
      for (let i = 0; i < 3; i++) {
        const filename = `${username}-wall-${i}.png`;
        const png = await bricksPng(64 + i * 16, 64, 8 + u);
        await files.write(username, 'ld', filename, png);
        await files.write(username, 'ld-thumbnails', `${filename}.webp`, png.subarray(0, 90 + i));
        const image = await images.insert({
          ownerId,
          kind: 'ld',
          filename,
          sourceImageId: null,
          width: 64 + i * 16,
          height: 64,
          bytes: png.length,
          metadata: { cliptextencode_585: `brick wall ${i}`, kseed: i },
          createdAt: NOW,
        });
        await images.assignTag(ownerId, image.id, i % 2 ? `wood-${u}` : `stone-${u}`);
        if (i !== 1) await images.setStarred(ownerId, image.id, true);
        if (u === 0 && i === 0) {
          const hd = await bricksPng(256, 256, 32);
          await files.write(username, 'hd', 'alice-wall-0-hd.png', hd);
          await files.write(
            username,
            'hd-thumbnails',
            'alice-wall-0-hd.png.webp',
            hd.subarray(0, 80),
          );
          await images.insert({
            ownerId,
            kind: 'hd',
            filename: 'alice-wall-0-hd.png',
            sourceImageId: image.id,
            width: 256,
            height: 256,
            bytes: hd.length,
            metadata: {},
            createdAt: NOW,
          });
        }
      }
    }
  } finally {
    await db.destroy();
  }
}

/** Every row of every table of a SQLite file, in a stable order. */
export function rowsOf(file: string): Record<string, unknown[]> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .pluck()
      .all() as string[];
    const dump: Record<string, unknown[]> = {};
    for (const table of tables.sort()) {
      const columns = db.prepare(`select * from "${table}" limit 0`).columns().length;
      const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
      dump[table] = db.prepare(`select * from "${table}" order by ${order}`).all();
    }
    return dump;
  } finally {
    db.close();
  }
}

/**
 * The rows without the columns a live process rewrites on its own: heartbeats every few seconds,
 * and a running job's progress (its last percent is saved up to 250 ms after it is shown).
 */
export function withoutHeartbeats(rows: Record<string, unknown[]>): Record<string, unknown[]> {
  const drop = (list: unknown[] | undefined, columns: string[]) =>
    (list ?? []).map((row) => {
      const kept = { ...(row as Record<string, unknown>) };
      for (const column of columns) kept[column] = 'heartbeat';
      return kept;
    });
  const running = (rows.jobs ?? []).filter(
    (job) => (job as { status?: unknown }).status === 'in_progress',
  );
  const settled = (rows.jobs ?? []).filter((job) => !running.includes(job));
  return {
    ...rows,
    jobs: [
      ...drop(settled, ['lease_expires_at']),
      ...drop(running, ['lease_expires_at', 'percent', 'updated_at']),
    ],
    instances: drop(rows.instances, ['heartbeat_at']),
  };
}

/** Every stored file below `root` (hidden names aside) as its path → SHA-256 of its bytes. */
export function filesOf(root: string): Record<string, string> {
  const dump: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`);
      else
        dump[`${prefix}${entry.name}`] = createHash('sha256')
          .update(fs.readFileSync(full))
          .digest('hex');
    }
  };
  walk(root, '');
  return dump;
}

/** Every row of every table of a PostgreSQL database, read as the server reads them. */
export async function rowsOfPostgres(url: string): Promise<Record<string, unknown[]>> {
  const db = await openDatabase({ dataDir: '', url, poolSize: 1 }, { migrate: false });
  try {
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
       where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db);
    const dump: Record<string, unknown[]> = {};
    for (const { name } of tables.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      dump[name] = (await sql`select * from ${sql.table(name)}`.execute(db)).rows;
    }
    return dump;
  } finally {
    await db.destroy();
  }
}

/**
 * Rows of two databases made comparable: Kysely's own bookkeeping (each database's migration
 * times) left out, and each table's rows in one order whatever the database's collation.
 */
export function comparableRows(rows: Record<string, unknown[]>): Record<string, unknown[]> {
  const kept: Record<string, unknown[]> = {};
  for (const [table, list] of Object.entries(rows)) {
    if (table.startsWith('kysely_')) continue;
    // A user's images_version and tags_version count the changes made on one database
    // (migrations 0022, 0030: their triggers count a restore's inserts too); only that they
    // move matters, not their value.
    const rows =
      table === 'users'
        ? list.map((row) => {
            const user = { ...(row as Record<string, unknown>) };
            delete user.images_version;
            delete user.tags_version;
            return user;
          })
        : list;
    kept[table] = [...rows].sort((a, b) => {
      const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return kept;
}

/** Every file of these users in a file store (an object store too) as path → SHA-256. */
export async function objectsOf(
  store: FileStore,
  owners: readonly string[],
): Promise<Record<string, string>> {
  const dump: Record<string, string> = {};
  for (const owner of owners) {
    for (const area of FILE_AREAS) {
      for (const file of await store.list(owner, area)) {
        const hash = createHash('sha256');
        await pipeline(store.read(owner, area, file.name), hash);
        dump[`${owner}/${area}/${file.name}`] = hash.digest('hex');
      }
    }
  }
  return Object.fromEntries(Object.entries(dump).sort(([a], [b]) => (a < b ? -1 : 1)));
}
