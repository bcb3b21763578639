import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { openDatabase, type Db } from '../store/database.js';
import { createImageRepository } from '../store/images.js';
import { UserService } from '../services/users.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { runEntry } from '../testing/processes.js';
import { ownerId, placeHdImage } from '../testing/retention.js';

// `npm run retention`, a real process on a real data folder. With TESSERA_FAULT_POINT it kills
// itself (SIGKILL) at a step of its removal (runtime/faults.ts); the next run finishes the job,
// and what was removed in the end is exactly what the dry run listed.

let data: ReturnType<typeof tempDir>;
let db: Db;
let files: LocalFileStore;

beforeEach(async () => {
  data = tempDir();
  db = await openDatabase({ dataDir: data.dir });
  await new UserService(createUserRepository(db)).add('alice', passwordOf('alice'));
  files = new LocalFileStore(path.join(data.dir, 'files'), path.join(data.dir, 'tmp'));
  const alice = { id: await ownerId(db, 'alice'), username: 'alice' };
  await placeHdImage(db, files, alice, 'oldest.png', new Date('2020-01-01T00:00:00Z'), 1500);
  await placeHdImage(db, files, alice, 'old.png', new Date('2020-02-01T00:00:00Z'), 2500);
  // Made now: far from 30 days old.
  await placeHdImage(db, files, alice, 'new.png', new Date(), 999);
});
afterEach(async () => {
  await db.destroy();
  data.remove();
});

const retention = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runEntry('commands/retention.ts', args, {
    DATA_DIR: data.dir,
    HD_RETENTION_DAYS: '30',
    ...env,
  });
const listed = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('alice\t'))
    .map((line) => line.split('\t').slice(0, 3));

describe('npm run retention', () => {
  it('removes, across crashes at each step, exactly what the dry run listed', async () => {
    const dryRun = await retention(['--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(listed(dryRun.stdout)).toEqual([
      ['alice', 'oldest.png', '1500'],
      ['alice', 'old.png', '2500'],
    ]);
    expect(dryRun.stdout).toContain('Would remove 2 HD files, freeing 4.0 KB (4000 bytes)');
    expect(await files.stat('alice', 'hd', 'oldest.png')).toBeDefined();

    // Killed after marking the first: its file is still there, its row says removed.
    const marked = await retention([], { TESSERA_FAULT_POINT: 'retention:marked' });
    expect(marked.code).toBeNull();
    const images = createImageRepository(db);
    expect((await images.find(1, 'hd', 'oldest.png'))?.hdRemovedAt).not.toBeNull();
    expect(await files.stat('alice', 'hd', 'oldest.png')).toBeDefined();
    // Killed after removing a file, before marking it done.
    const removed = await retention([], { TESSERA_FAULT_POINT: 'retention:file-removed' });
    expect(removed.code).toBeNull();
    expect(await files.stat('alice', 'hd', 'oldest.png')).toBeUndefined();

    const run = await retention([]);
    expect(run.code).toBe(0);
    expect(listed(run.stdout)).toEqual(listed(dryRun.stdout));
    expect(run.stdout).toContain('Removed 2 HD files, freed 4.0 KB (4000 bytes)');
    expect(await files.stat('alice', 'hd', 'old.png')).toBeUndefined();
    expect(await files.stat('alice', 'hd', 'new.png')).toBeDefined();
    expect(listed((await retention(['--dry-run'])).stdout)).toEqual([]);
  }, 60_000);

  it('refuses without a policy, and takes --days for a dry run before setting one', async () => {
    const off = await retention([], { HD_RETENTION_DAYS: '' });
    expect(off).toMatchObject({ code: 2 });
    expect(off.stderr).toMatch(/HD_RETENTION_DAYS is unset or 0/);
    const preview = await retention(['--dry-run', '--days', '3650'], { HD_RETENTION_DAYS: '' });
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('Would remove 0 HD files, freeing 0 B (0 bytes)');
    expect((await retention(['--days', 'x'])).code).toBe(2);
    expect((await retention([], { HD_RETENTION_DAYS: '-1' })).stderr).toMatch(
      /HD_RETENTION_DAYS must be a whole number from 0 to 36500/,
    );
  }, 60_000);
});
