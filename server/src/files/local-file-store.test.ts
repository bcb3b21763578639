import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { withScratch } from './file-store.js';
import { describeFileStoreContract } from './file-store-contract.suite.js';
import { LocalFileStore } from './local-file-store.js';

describeFileStoreContract('local folder', () => {
  const data = tempDir();
  const root = path.join(data.dir, 'files');
  return Promise.resolve({
    store: new LocalFileStore(root, path.join(data.dir, 'tmp')),
    async leaveTemporary(owner, area, name) {
      // What `write` leaves when the process dies between its first and its last step.
      const dir = path.join(root, owner, area);
      await fsp.mkdir(dir, { recursive: true });
      await fsp.writeFile(path.join(dir, `.tmp-${randomBytes(6).toString('hex')}-${name}`), 'half');
    },
    destroy: () => Promise.resolve(data.remove()),
  });
});

describe('LocalFileStore on disk', () => {
  let data: ReturnType<typeof tempDir> | undefined;
  afterEach(() => data?.remove());

  function store() {
    data = tempDir();
    const root = path.join(data.dir, 'files');
    const scratchRoot = path.join(data.dir, 'tmp');
    return { root, scratchRoot, files: new LocalFileStore(root, scratchRoot) };
  }

  it('passes its readiness check before the first file and after, and fails once its folder is gone', async () => {
    const { root, files } = store();
    await files.check();
    await files.write('alice', 'ld', 'a.png', Buffer.from('png'));
    await files.check();
    // As an unmounted volume: the data folder itself is no longer there.
    fs.rmSync(path.dirname(root), { recursive: true, force: true });
    await expect(files.check()).rejects.toThrow(/ENOENT/);
  });

  /** Every file under a folder, as paths relative to it. */
  function tree(dir: string): string[] {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
  }

  it('keeps files at <root>/<user>/<area>/<name> and scratch under its own folder', async () => {
    const { root, scratchRoot, files } = store();
    await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
    await withScratch(files, async (scratch) => {
      const output = scratch.newFile('png');
      expect(path.dirname(path.dirname(output.path))).toBe(scratchRoot);
      await fsp.writeFile(output.path, 'hd');
      await output.putInto('alice', 'hd', 'wall_30x30.png');
    });
    expect(tree(root)).toEqual(['alice/hd/wall_30x30.png', 'alice/ld/wall.png']);
    expect(tree(scratchRoot)).toEqual([]);
  });

  it('writes nothing outside its folders for a name that is a path', async () => {
    const { files } = store();
    const outside = data?.dir ?? '';
    await expect(files.write('..', 'ld', 'x.png', Buffer.from('x'))).rejects.toThrow(
      'Invalid owner',
    );
    await expect(files.write('alice', 'ld', '../../x.png', Buffer.from('x'))).rejects.toThrow(
      'Invalid file name',
    );
    expect(tree(outside)).toEqual([]);
  });

  it('copies a stored file into scratch by a hard link: no bytes copied', async () => {
    const { root, files } = store();
    await files.write('alice', 'ld', 'wall.png', randomBytes(1000));
    await withScratch(files, async (scratch) => {
      const copy = await scratch.copyOf('alice', 'ld', 'wall.png');
      const stored = await fsp.stat(path.join(root, 'alice', 'ld', 'wall.png'));
      expect((await fsp.stat(copy)).ino).toBe(stored.ino);
    });
  });

  it('moves a scratch file into the store: no bytes copied', async () => {
    const { root, files } = store();
    await withScratch(files, async (scratch) => {
      const output = scratch.newFile('jpg');
      await fsp.writeFile(output.path, randomBytes(1000));
      const before = (await fsp.stat(output.path)).ino;
      await output.putInto('alice', 'hd', 'big.jpg');
      expect((await fsp.stat(path.join(root, 'alice', 'hd', 'big.jpg'))).ino).toBe(before);
    });
  });
});
