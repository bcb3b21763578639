import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../files/index.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from '../testing/http.js';
import {
  comparableRows,
  filesOf,
  makeInstallContent,
  objectsOf,
  rowsOf,
  rowsOfPostgres,
  withoutHeartbeats,
} from '../testing/install-content.js';
import {
  createScratchPostgres,
  postgresMissing,
  type ScratchPostgres,
} from '../testing/postgres.js';
import { captureOutput, finished, runEntry, spawnEntry } from '../testing/processes.js';
import { startS3rver, type RunningS3rver } from '../testing/s3rver.js';
import { TestClient } from '../testing/test-client.js';

// The backup and the restore of an install on PostgreSQL (DATABASE_URL) and an object store
// (FILES_URL): the machine's PostgreSQL, and s3rver in this process.

const missing = await postgresMissing();
const OWNERS = ['alice', 'bob'];
const PREFIX = 'studio';

let data: ReturnType<typeof tempDir>;
let backup: ReturnType<typeof tempDir>;
const databases: ScratchPostgres[] = [];
const objectStores: RunningS3rver[] = [];
beforeEach(() => {
  data = tempDir('tessera-backup-ext-data-');
  backup = tempDir('tessera-backup-ext-to-');
});
afterEach(async () => {
  for (const db of databases.splice(0)) await db.drop();
  for (const s3 of objectStores.splice(0)) await s3.stop();
  data.remove();
  backup.remove();
});

/** A new empty database and a new object store (its own folder): a wiped install's stores. */
async function newStores() {
  const db = await createScratchPostgres();
  databases.push(db);
  const s3 = await startS3rver();
  objectStores.push(s3);
  const s3Settings = s3.settings(PREFIX);
  const env = {
    DATA_DIR: data.dir,
    DATABASE_URL: db.url,
    FILES_URL: `s3://${s3.bucket}/${PREFIX}`,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const objects = async () =>
    objectsOf(
      await createFileStore({ dataDir: data.dir, s3: s3Settings }, path.join(data.dir, 'tmp')),
      OWNERS,
    );
  return { db, s3, env, objects };
}

/** Stderr without the AWS SDK's notice on Node 20 (its end of support, not this tool's). */
const ownErrors = (stderr: string) =>
  stderr.replace(/\(node:\d+\) Warning: NodeVersionSupportWarning[\s\S]*?was created\)\n/, '');

async function startServer(env: Record<string, string>) {
  const server = spawnEntry('main.ts', [], {
    PORT: '0',
    HOST: '127.0.0.1',
    BUILTIN_UPSCALER: 'lanczos',
    // For the runner's "job finished" lines, the events the preview's status is read on.
    LOG_LEVEL: 'info',
    // A job running when the backup was taken is claimed again once its lease ran out.
    JOB_LEASE_MS: '3000',
    ...env,
  });
  const done = finished(server);
  const output = captureOutput(server);
  const [, url = ''] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/, 60_000);
  return {
    server,
    url,
    output,
    done,
    nextJobEnd: () => output.printedNext(/"msg":"job (finished|failed)"/),
  };
}

describe.skipIf(missing)('npm run backup and restore on PostgreSQL and an object store', () => {
  it('backs up mid-job; a wiped install restored from it holds every row and object, byte for byte, and works', async () => {
    const live = await newStores();
    // The content: made on SQLite and local files, moved into PostgreSQL and s3rver.
    const seed = path.join(data.dir, 'seed');
    await makeInstallContent(seed);
    const moved = await runEntry('commands/migrate-store.ts', ['--from', seed], live.env);
    expect(moved.code).toBe(0);

    const running = await startServer({ ...live.env, TESSERA_FAULT_HOLD: 'preview:file-written' });
    const cookie = await signIn(running.url, 'alice');
    const posted = await postPreview(running.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(256, 256) },
      fields: previewFields('alice'),
    });
    expect(posted.status).toBe(202);
    // The job stands between storing its LD object and recording its row: mid-commit.
    await running.output.waitFor(/fault hold: preview:file-written/, 60_000);
    const atBackup = { rows: await rowsOfPostgres(live.db.url), objects: await live.objects() };
    expect(atBackup.rows.jobs).toContainEqual(expect.objectContaining({ status: 'in_progress' }));
    expect(atBackup.rows.images).toHaveLength(7);
    expect(Object.keys(atBackup.objects)).toHaveLength(17);

    const made = await runEntry('commands/backup.ts', ['--to', backup.dir], live.env);
    expect(ownErrors(made.stderr)).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/Backup of PostgreSQL \(DATABASE_URL\) and s3:\/\/\S+\/studio/);
    expect(made.stdout).toMatch(/files: {4}17 \(\d+ bytes\)/);

    // The job goes on and finishes after the backup: the live install moves past it.
    running.server.kill('SIGUSR2');
    expect((await waitForPreview(running.url, cookie, 60_000, running.nextJobEnd)).status).toBe(
      'finished',
    );
    running.server.kill('SIGTERM');
    await running.done;
    expect((await rowsOfPostgres(live.db.url)).images).toHaveLength(8);

    const manifest = JSON.parse(fs.readFileSync(path.join(backup.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'tessera-backup',
      source: {
        database: { kind: 'postgresql', method: expect.stringMatching(/REPEATABLE READ/) },
        files: { kind: 's3', method: expect.stringMatching(/studio/) },
      },
      schema: { migration: '0030-tag-list-version', migrations: 27 },
      rows: { users: 2, images: 7, tags: 4, image_tags: 6, jobs: 1 },
      leftOut: [],
    });
    expect(
      Object.fromEntries(
        (manifest.files as { path: string; sha256: string }[]).map((f) => [f.path, f.sha256]),
      ),
    ).toEqual(atBackup.objects);

    // A restore into a database or a prefix in use is refused, and changes nothing.
    const over = await runEntry('commands/restore.ts', ['--from', backup.dir], live.env);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/DATABASE_URL is not empty: it holds .*users \(2 rows\)/);

    const emptyDb = await createScratchPostgres();
    databases.push(emptyDb);
    const intoUsedPrefix = await runEntry('commands/restore.ts', ['--from', backup.dir], {
      ...live.env,
      DATABASE_URL: emptyDb.url,
    });
    expect(intoUsedPrefix.code).toBe(2);
    expect(intoUsedPrefix.stderr).toMatch(
      /object store of FILES_URL \(s3:\/\/\S+\/studio\) is not empty: it holds alice\/input\/ \(1 objects\)/,
    );
    expect((await rowsOfPostgres(emptyDb.url)).users).toEqual([]);

    // Wipe: the database dropped, the object store gone; new empty ones in their place.
    await databases.shift()?.drop();
    await objectStores.shift()?.stop();
    const wiped = await newStores();
    const restored = await runEntry('commands/restore.ts', ['--from', backup.dir], wiped.env);
    expect(ownErrors(restored.stderr)).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/files: {4}17, each checked against its SHA-256/);

    const rows = await rowsOfPostgres(wiped.db.url);
    // Every row of the backup, as the backup's SQLite file holds it...
    expect(comparableRows(rows)).toEqual(
      comparableRows(rowsOf(path.join(backup.dir, 'tessera.sqlite'))),
    );
    // ... and as the live database held it, but for the running processes' heartbeats.
    expect(comparableRows(withoutHeartbeats(rows))).toEqual(
      comparableRows(withoutHeartbeats(atBackup.rows)),
    );
    expect(await wiped.objects()).toEqual(atBackup.objects);

    // The same backup restores onto SQLite and local files as well: one format for every install.
    const local = path.join(data.dir, 'local');
    const onSqlite = await runEntry('commands/restore.ts', ['--from', backup.dir], {
      DATA_DIR: local,
    });
    expect(onSqlite.code).toBe(0);
    expect(comparableRows(rowsOf(path.join(local, 'tessera.sqlite')))).toEqual(
      comparableRows(rows),
    );
    expect(filesOf(path.join(local, 'files'))).toEqual(atBackup.objects);

    // A server on the restored stores: users sign in, images list and download, and the job
    // that was running when the backup was taken runs again to its end, once.
    const again = await startServer(wiped.env);
    const aliceCookie = await signIn(again.url, 'alice');
    const client = await TestClient.connect(
      `${again.url.replace('http://', 'ws://')}/mqtt`,
      'alice',
      passwordOf('alice'),
    );
    try {
      const hd = await client.call('list-high-definition', { page: 1, size: 100 });
      expect((hd.images as { filename: string }[]).map((i) => i.filename)).toEqual([
        'alice-wall-0-hd.png',
      ]);
    } finally {
      await client.mqtt.endAsync();
    }
    const download = await fetch(`${again.url}/api/images/ld/alice-wall-1.png`, {
      headers: { cookie: aliceCookie },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(await bricksPng(80, 64, 8));
    expect((await waitForPreview(again.url, aliceCookie, 60_000, again.nextJobEnd)).status).toBe(
      'finished',
    );
    again.server.kill('SIGTERM');
    await again.done;
    const after = await rowsOfPostgres(wiped.db.url);
    expect(after.images).toHaveLength(8);
    expect(after.jobs).toEqual([expect.objectContaining({ status: 'finished' })]);
  }, 300_000);
});
