import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_AREAS } from '../files/places.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { TABLES_IN_DEPENDENCY_ORDER } from '../store/copy-rows.js';
import { openDatabase, type Db } from '../store/database.js';
import { tempDir } from '../testing/fixtures.js';
import { bricksPng } from '../testing/http.js';
import { runEntry } from '../testing/processes.js';

let source: ReturnType<typeof tempDir>;
let target: ReturnType<typeof tempDir>;
beforeEach(() => {
  source = tempDir('tessera-migrate-from-');
  target = tempDir('tessera-migrate-to-');
});
afterEach(() => {
  source.remove();
  target.remove();
});

const migrate = (args: string[], env: Record<string, string> = {}) =>
  runEntry('commands/migrate-store.ts', args, { DATA_DIR: target.dir, ...env });

const NOW = '2026-11-24T08:00:00.000Z';

/**
 * An install in use: users with sessions, LD images and an HD image made from one, tags on
 * images, jobs, a paused queue, a password change, and their files in several areas.
 */
async function fillSource(): Promise<void> {
  const db = await openDatabase({ dataDir: source.dir });
  const files = new LocalFileStore(path.join(source.dir, 'files'));
  try {
    for (const [u, username] of ['ann', 'bob', 'cy'].entries()) {
      const user = await db
        .insertInto('users')
        .values({ username, password_hash: `hash-${username}`, created_at: NOW, updated_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      const owner_id = user.id;
      await db
        .insertInto('sessions')
        .values({
          token_hash: `token-${username}`,
          user_id: owner_id,
          created_at: NOW,
          expires_at: NOW,
        })
        .execute();
      await db
        .insertInto('tags')
        .values([
          { owner_id, id: `t1-${username}`, name: 'Stone', color: '#808080', created_at: NOW },
          { owner_id, id: `t2-${username}`, name: 'Wood', color: '#a0522d', created_at: NOW },
        ])
        .execute();
      const reference = await bricksPng(64, 64, 8 + u);
      await files.write(username, 'input', 'reference.png', reference);
      const ldIds: number[] = [];
      for (let i = 0; i < 3; i++) {
        const filename = `ld-${username}-${i}.png`;
        const png = await bricksPng(48 + i * 8, 48, 8 + u);
        await files.write(username, 'ld', filename, png);
        await files.write(username, 'ld-thumbnails', filename, png.subarray(0, 100 + i));
        const image = await db
          .insertInto('images')
          .values({
            owner_id,
            kind: 'ld',
            filename,
            source_image_id: null,
            width: 48 + i * 8,
            height: 48,
            bytes: png.length,
            metadata: JSON.stringify({ cliptextencode_585: `wall ${i}`, kseed: i }),
            created_at: NOW,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ldIds.push(image.id);
        await db
          .insertInto('image_tags')
          .values({ image_id: image.id, owner_id, tag_id: `t${(i % 2) + 1}-${username}` })
          .execute();
      }
      const hdName = `hd-${username}.png`;
      const hdPng = await bricksPng(128, 128, 16);
      await files.write(username, 'hd', hdName, hdPng);
      await db
        .insertInto('images')
        .values({
          owner_id,
          kind: 'hd',
          filename: hdName,
          source_image_id: ldIds[0] ?? null,
          width: 128,
          height: 128,
          bytes: hdPng.length,
          metadata: '{}',
          created_at: NOW,
        })
        .execute();
      for (const [kind, status] of [
        ['preview', 'finished'],
        [u === 1 ? 'maps' : 'hd', u === 1 ? 'in_progress' : 'queued'],
      ] as const) {
        await db
          .insertInto('jobs')
          .values({
            public_id: `${kind}-${username}`,
            owner_id,
            kind,
            status,
            percent: status === 'finished' ? 100 : status === 'in_progress' ? 40 : 0,
            params: '{}',
            output: null,
            error: null,
            attempts: 0,
            max_attempts: 3,
            run_after: NOW,
            dedupe_key: null,
            claimed_at: null,
            prompt_server: null,
            prompt_id: null,
            prompt_client_id: null,
            created_at: NOW,
            updated_at: NOW,
          })
          .execute();
      }
    }
    await db
      .insertInto('job_queue_pauses')
      .values({ owner_id: 1, kind: 'hd', paused_at: NOW })
      .execute();
    await db
      .insertInto('credential_changes')
      .values({ username: 'bob', changed_at: NOW })
      .execute();
    await db
      .insertInto('audit_events')
      .values({
        at: NOW,
        actor: 'ann',
        action: 'role-changed',
        target: 'bob',
        details: '{}',
        address: '10.0.0.1',
      })
      .execute();
  } finally {
    await db.destroy();
  }
}

/** Every table's rows in primary-key order, as comparable values. */
async function dumpRows(dir: string): Promise<Record<string, unknown[]>> {
  const db: Db = await openDatabase({ dataDir: dir });
  try {
    const dump: Record<string, unknown[]> = {};
    for (const { table, primaryKey } of TABLES_IN_DEPENDENCY_ORDER) {
      let query = db.selectFrom(table).selectAll();
      for (const column of primaryKey) query = query.orderBy(column as never);
      const rows = await query.execute();
      // A user's images_version and tags_version count the changes made on this database
      // (migrations 0022, 0030: their triggers count the copy's inserts too); only that they
      // move matters, not their value.
      dump[table] =
        table === 'users'
          ? rows.map(({ images_version: _images, tags_version: _tags, ...user }) => user)
          : rows;
    }
    return dump;
  } finally {
    await db.destroy();
  }
}

/** Every stored file as `user/area/name` → SHA-256 of its bytes. */
async function dumpFiles(dir: string, owners: string[]): Promise<Record<string, string>> {
  const store = new LocalFileStore(path.join(dir, 'files'));
  const dump: Record<string, string> = {};
  for (const owner of owners) {
    for (const area of FILE_AREAS) {
      for (const file of await store.list(owner, area)) {
        const bytes = await store.readBuffer(owner, area, file.name);
        dump[`${owner}/${area}/${file.name}`] = createHash('sha256').update(bytes).digest('hex');
      }
    }
  }
  return dump;
}

const rowCount = (dump: Record<string, unknown[]>) =>
  Object.values(dump).reduce((sum, rows) => sum + rows.length, 0);

describe('npm run migrate-store', () => {
  it('copies every row and file; killed mid-rows and mid-files, a rerun continues to the same result', async () => {
    await fillSource();
    const owners = ['ann', 'bob', 'cy'];
    const rows = await dumpRows(source.dir);
    // bob's job was running when the old install stopped: it arrives queued, to run again.
    const interrupted = { public_id: 'maps-bob', status: 'in_progress', percent: 40 };
    expect(rows.jobs).toContainEqual(expect.objectContaining(interrupted));
    rows.jobs = (rows.jobs as Record<string, unknown>[]).map((job) =>
      job.public_id === 'maps-bob' ? { ...job, status: 'queued', percent: 0 } : job,
    );
    const files = await dumpFiles(source.dir, owners);
    expect(rowCount(rows)).toBe(42);
    expect(Object.keys(files)).toHaveLength(24);

    // SIGKILL after 13 rows (batches of 3): those are in the target, the rest not.
    const killedInRows = await migrate(['--from', source.dir, '--batch', '3'], {
      TESSERA_FAULT_POINT: 'migrate-store:rows:13',
    });
    expect(killedInRows.code).toBeNull();
    expect(rowCount(await dumpRows(target.dir))).toBe(13);
    expect(await dumpFiles(target.dir, owners)).toEqual({});

    // The rerun skips those 13, copies the other rows and is killed after 5 files.
    const killedInFiles = await migrate(['--from', source.dir, '--batch', '3'], {
      TESSERA_FAULT_POINT: 'migrate-store:files:5',
    });
    expect(killedInFiles.code).toBeNull();
    expect(await dumpRows(target.dir)).toEqual(rows);
    expect(Object.keys(await dumpFiles(target.dir, owners))).toHaveLength(5);

    const finished = await migrate(['--from', source.dir]);
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    expect(finished.stdout).toMatch(/rows: {2}42 \(0 copied, 42 already there\)/);
    expect(finished.stdout).toMatch(/files: 24 \(19 copied, \d+ bytes; 5 already there\)/);
    expect(await dumpRows(target.dir)).toEqual(rows);
    expect(await dumpFiles(target.dir, owners)).toEqual(files);

    // Nothing left to do: a further run copies nothing and changes nothing.
    const again = await migrate(['--from', source.dir]);
    expect(again.stdout).toMatch(/rows: {2}42 \(0 copied, 42 already there\)/);
    expect(again.stdout).toMatch(/files: 24 \(0 copied, 0 bytes; 24 already there\)/);
    expect(await dumpRows(target.dir)).toEqual(rows);
  });

  it('refuses a target that is the source, and a folder without a database, changing nothing', async () => {
    await fillSource();
    const before = fs.readFileSync(path.join(source.dir, 'tessera.sqlite'));

    const same = await migrate(['--from', source.dir], { DATA_DIR: source.dir });
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/The target database is the source/);
    expect(fs.readFileSync(path.join(source.dir, 'tessera.sqlite'))).toEqual(before);

    const empty = path.join(target.dir, 'nothing-here');
    const missing = await migrate(['--from', empty]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/tessera\.sqlite not found/);
    expect(fs.existsSync(empty)).toBe(false);
    expect(fs.readdirSync(target.dir)).toEqual([]);

    const noFrom = await migrate([]);
    expect(noFrom.code).toBe(2);
    expect(noFrom.stderr).toMatch(/Usage: npm run migrate-store -- --from/);
  });
});
