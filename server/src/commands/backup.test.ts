import fs from 'node:fs';
import path from 'node:path';
import { SQLite } from '../store/sqlite-driver.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from '../testing/http.js';
import {
  filesOf,
  makeInstallContent,
  rowsOf,
  withoutHeartbeats,
} from '../testing/install-content.js';
import {
  captureOutput,
  finished,
  runEntry,
  spawnEntry,
  startServerProcess,
} from '../testing/processes.js';
import { TestClient } from '../testing/test-client.js';

let data: ReturnType<typeof tempDir>;
let backup: ReturnType<typeof tempDir>;
beforeEach(() => {
  data = tempDir('tessera-backup-data-');
  backup = tempDir('tessera-backup-to-');
});
afterEach(() => {
  data.remove();
  backup.remove();
});

const startServer = (env: Record<string, string> = {}) => startServerProcess(data.dir, env);

const database = () => path.join(data.dir, 'tessera.sqlite');

describe('npm run backup and npm run restore', () => {
  it('backs up a running server mid-job; the restore is the backup moment, byte for byte, and the product works on it', async () => {
    await makeInstallContent(data.dir);
    const running = await startServer({ TESSERA_FAULT_HOLD: 'preview:file-written' });
    const cookie = await signIn(running.url, 'alice');
    const posted = await postPreview(running.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(256, 256) },
      fields: previewFields('alice'),
    });
    expect(posted.status).toBe(202);
    // The job stands between writing its LD file and recording its row: mid-commit.
    await running.output.waitFor(/fault hold: preview:file-written/, 60_000);
    const atBackup = { rows: rowsOf(database()), files: filesOf(path.join(data.dir, 'files')) };
    expect(atBackup.rows.jobs).toContainEqual(expect.objectContaining({ status: 'in_progress' }));
    expect(atBackup.rows.images).toHaveLength(7);
    // The held job's file and thumbnail are written, the reference uploaded: 8 + 6 + 3 files.
    expect(Object.keys(atBackup.files)).toHaveLength(17);

    const made = await runEntry('commands/backup.ts', ['--to', backup.dir], { DATA_DIR: data.dir });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/files: {4}17 \(\d+ bytes\)/);

    // The job goes on and finishes after the backup: the live install moves past it.
    running.server.kill('SIGUSR2');
    expect((await waitForPreview(running.url, cookie, 60_000, running.nextJobEnd)).status).toBe(
      'finished',
    );
    running.server.kill('SIGTERM');
    await running.done;
    expect(rowsOf(database()).images).toHaveLength(8);

    // The manifest: version, schema level, counts, each file's checksum.
    const manifest = JSON.parse(fs.readFileSync(path.join(backup.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'tessera-backup',
      tesseraVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      schema: { migration: '0030-tag-list-version', migrations: 27 },
      rows: { users: 2, images: 7, tags: 4, image_tags: 6, jobs: 1 },
      leftOut: [],
    });
    expect(
      Object.fromEntries(
        (manifest.files as { path: string; sha256: string }[]).map((f) => [f.path, f.sha256]),
      ),
    ).toEqual(atBackup.files);

    // Wipe the install, then restore it.
    fs.rmSync(data.dir, { recursive: true, force: true });
    fs.mkdirSync(data.dir);
    const restored = await runEntry('commands/restore.ts', ['--from', backup.dir], {
      DATA_DIR: data.dir,
    });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/files: {4}17, each checked against its SHA-256/);
    expect(rowsOf(database())).toEqual(rowsOf(path.join(backup.dir, 'tessera.sqlite')));
    // The live rows as they stood while the backup ran: the same, but for the running
    // processes' heartbeats (the job's lease is renewed every few seconds).
    expect(withoutHeartbeats(rowsOf(database()))).toEqual(withoutHeartbeats(atBackup.rows));
    expect(filesOf(path.join(data.dir, 'files'))).toEqual(atBackup.files);

    // A server on the restored data: users sign in, images list and download, and the job that
    // was running when the backup was taken runs again to its end, once.
    const again = await startServer();
    const aliceCookie = await signIn(again.url, 'alice');
    const client = await TestClient.connect(
      `${again.url.replace('http://', 'ws://')}/mqtt`,
      'alice',
      passwordOf('alice'),
    );
    try {
      const listed = await client.call('list-low-definition', { page: 1, size: 100 });
      const names = (listed.images as { filename: string; starred?: boolean }[]).map(
        (image) => image.filename,
      );
      expect(names).toEqual(expect.arrayContaining(['alice-wall-0.png', 'alice-wall-2.png']));
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
    const original = await bricksPng(80, 64, 8);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(original);
    expect((await waitForPreview(again.url, aliceCookie, 60_000, again.nextJobEnd)).status).toBe(
      'finished',
    );
    again.server.kill('SIGTERM');
    await again.done;
    const after = rowsOf(database());
    expect(after.images).toHaveLength(8);
    expect(after.jobs).toEqual([expect.objectContaining({ status: 'finished' })]);
  }, 300_000);

  it('leaves out a row whose file is deleted while the backup runs, and still finishes', async () => {
    await makeInstallContent(data.dir);
    const taking = spawnEntry('commands/backup.ts', ['--to', backup.dir], {
      DATA_DIR: data.dir,
      TESSERA_FAULT_HOLD: 'backup:snapshot-taken',
    });
    const done = finished(taking);
    await captureOutput(taking).waitFor(/fault hold: backup:snapshot-taken/);
    // Between the snapshot and the copy of the files, alice deletes an image, as the server
    // does: the files go, then the row.
    const files = path.join(data.dir, 'files', 'alice');
    fs.rmSync(path.join(files, 'ld', 'alice-wall-2.png'));
    fs.rmSync(path.join(files, 'ld-thumbnails', 'alice-wall-2.png.webp'));
    const live = new SQLite(database());
    live.pragma('foreign_keys = ON');
    live.prepare("delete from images where filename = 'alice-wall-2.png'").run();
    live.close();
    taking.kill('SIGUSR2');
    const made = await done;
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/left out: 1 rows whose files were deleted while the backup ran/);
    const manifest = JSON.parse(fs.readFileSync(path.join(backup.dir, 'manifest.json'), 'utf8'));
    expect(manifest.leftOut).toEqual([
      { table: 'images', owner: 'alice', filename: 'alice-wall-2.png' },
    ]);
    expect(manifest.rows).toMatchObject({ images: 6, image_tags: 5 });

    // Every row of the backup has its file, and the restore is the install after the deletion.
    const restored = await runEntry('commands/restore.ts', ['--from', backup.dir], {
      DATA_DIR: path.join(data.dir, 'restored'),
    });
    expect(restored.code).toBe(0);
    const rows = rowsOf(path.join(data.dir, 'restored', 'tessera.sqlite'));
    const live2 = rowsOf(database());
    expect(rows.images).toEqual(live2.images);
    expect(rows.image_tags).toEqual(live2.image_tags);
    const restoredFiles = filesOf(path.join(data.dir, 'restored', 'files'));
    expect(restoredFiles).toEqual(filesOf(path.join(data.dir, 'files')));
    for (const image of rows.images as { owner_id: number; kind: string; filename: string }[]) {
      const owner = image.owner_id === 1 ? 'alice' : 'bob';
      expect(restoredFiles).toHaveProperty([`${owner}/${image.kind}/${image.filename}`]);
    }
  }, 120_000);

  it('refuses what it cannot do, saying so, and changes nothing', async () => {
    await makeInstallContent(data.dir);
    const backupTo = (env: Record<string, string>, to = backup.dir) =>
      runEntry('commands/backup.ts', ['--to', to], { DATA_DIR: data.dir, ...env });
    const restoreFrom = (dataDir: string, from = backup.dir) =>
      runEntry('commands/restore.ts', ['--from', from], { DATA_DIR: dataDir });

    const noManifest = await restoreFrom(path.join(data.dir, 'new'));
    expect(noManifest.code).toBe(2);
    expect(noManifest.stderr).toMatch(/manifest\.json not found: .* is not a Tessera backup/);
    expect(fs.readdirSync(backup.dir)).toEqual([]);
    fs.writeFileSync(path.join(backup.dir, 'notes.txt'), 'not a backup');
    const notEmpty = await backupTo({});
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.stderr).toMatch(/is not empty: back up into a new or empty folder/);
    fs.rmSync(path.join(backup.dir, 'notes.txt'));
    expect((await backupTo({})).code).toBe(0);

    // One flipped byte and one missing file in the backup: refused before anything is written.
    const damaged = path.join(backup.dir, 'files', 'bob', 'ld', 'bob-wall-1.png');
    const bytes = fs.readFileSync(damaged);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 20) ^ 0xff, bytes.length - 20);
    fs.writeFileSync(damaged, bytes);
    fs.rmSync(path.join(backup.dir, 'files', 'alice', 'hd', 'alice-wall-0-hd.png'));
    const fresh = path.join(data.dir, 'fresh');
    const before = fs.readFileSync(database());
    const [over, refused] = await Promise.all([restoreFrom(data.dir), restoreFrom(fresh)]);
    // A restore over an install in use would lose it: refused, the install untouched.
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/DATA_DIR \(.*\) is not empty: it holds tessera\.sqlite, files\//);
    expect(fs.readFileSync(database())).toEqual(before);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `The backup in ${backup.dir} is damaged: 2 of its files do not match manifest.json: ` +
        'alice/hd/alice-wall-0-hd.png (missing), bob/ld/bob-wall-1.png (bytes differ)\n',
    );
    expect(fs.existsSync(fresh) ? fs.readdirSync(fresh) : []).toEqual([]);
  }, 120_000);
});
