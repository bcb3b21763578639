import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withScratch, type FileArea, type FileStore } from './file-store.js';

/** A store to run the contract on, and what only its implementation can do. */
export interface FileStoreUnderTest {
  store: FileStore;
  /** Leaves a half-written temporary file of `name`, as a crash in the middle of `write` would. */
  leaveTemporary(owner: string, area: FileArea, name: string): Promise<void>;
  /** Removes everything the store holds (files and scratch). */
  destroy(): Promise<void>;
}

/** Names that would reach another place than a file of the area if they were joined to a path. */
const TRICK_NAMES = [
  '../x.png',
  '../../x.png',
  'a/b.png',
  'a\\b.png',
  '.hidden',
  '.',
  '..',
  '',
  'x\0.png',
  // 200 characters but 400 bytes: refused as a name, never tried on a disk (ENAMETOOLONG).
  `${'é'.repeat(200)}.png`,
];
const TRICK_OWNERS = ['..', '.', '../bob', 'a/b', '', 'al ice'];
const TRICK_AREAS = ['../ld', 'etc', '', 'ld/../hd'];

/**
 * What every FileStore must do, whatever keeps the bytes (a local folder, an object store):
 * write, read (with ranges), stat, list, removal in two steps, the cleanup after a crash, the
 * scratch folders engines work in, and the refusal of names that are paths. An implementation's
 * test calls this with a factory of fresh, empty stores.
 */
export function describeFileStoreContract(
  implementation: string,
  make: () => Promise<FileStoreUnderTest>,
): void {
  describe(`FileStore contract: ${implementation}`, () => {
    let under: FileStoreUnderTest;
    let files: FileStore;
    beforeEach(async () => {
      under = await make();
      files = under.store;
    });
    afterEach(() => under.destroy());

    describe('write and read', () => {
      it('gives back the bytes written, whole, as a stream, by range, and by stat and list', async () => {
        const data = randomBytes(100_000);
        const stored = await files.write('alice', 'ld', 'wall.png', data);
        expect(stored).toMatchObject({ name: 'wall.png', bytes: data.length });

        expect((await files.readBuffer('alice', 'ld', 'wall.png')).equals(data)).toBe(true);
        expect((await buffer(files.read('alice', 'ld', 'wall.png'))).equals(data)).toBe(true);
        const range = await buffer(files.read('alice', 'ld', 'wall.png', { start: 10, end: 19 }));
        expect(range.equals(data.subarray(10, 20))).toBe(true);
        const tail = files.read('alice', 'ld', 'wall.png', { start: 99_990, end: 99_999 });
        expect((await buffer(tail)).equals(data.subarray(99_990))).toBe(true);

        const stat = await files.stat('alice', 'ld', 'wall.png');
        expect(stat).toMatchObject({ name: 'wall.png', bytes: data.length });
        expect(stat?.modifiedAt).toBeInstanceOf(Date);
        expect((await files.list('alice', 'ld')).map((f) => [f.name, f.bytes])).toEqual([
          ['wall.png', data.length],
        ]);
      });

      it('writes a stream, and a second write replaces the file', async () => {
        await files.write('alice', 'hd', 'big.jpg', Buffer.from('first version'));
        const chunks = [randomBytes(70_000), randomBytes(70_000), randomBytes(10)];
        const stored = await files.write('alice', 'hd', 'big.jpg', Readable.from(chunks));
        expect(stored.bytes).toBe(140_010);
        const read = await files.readBuffer('alice', 'hd', 'big.jpg');
        expect(read.equals(Buffer.concat(chunks))).toBe(true);
        expect((await files.list('alice', 'hd')).map((f) => f.name)).toEqual(['big.jpg']);
      });

      it('keeps owners and areas apart', async () => {
        await files.write('alice', 'ld', 'wall.png', Buffer.from('alice ld'));
        await files.write('bob', 'hd', 'wall.png', Buffer.from('bob hd'));
        expect(await files.stat('bob', 'ld', 'wall.png')).toBeUndefined();
        expect(await files.stat('alice', 'hd', 'wall.png')).toBeUndefined();
        expect(await files.list('bob', 'ld')).toEqual([]);
        expect((await files.readBuffer('bob', 'hd', 'wall.png')).toString()).toBe('bob hd');
      });

      it('answers a missing file: no stat, an empty list, a failed read', async () => {
        expect(await files.stat('alice', 'ld', 'none.png')).toBeUndefined();
        expect(await files.list('nobody', 'ld')).toEqual([]);
        await expect(files.readBuffer('alice', 'ld', 'none.png')).rejects.toThrow();
        await expect(buffer(files.read('alice', 'ld', 'none.png'))).rejects.toThrow();
      });

      it('leaves nothing of a write whose data failed, and the file it would replace intact', async () => {
        await files.write('alice', 'ld', 'wall.png', Buffer.from('kept'));
        const failing = new Readable({
          read() {
            this.push(randomBytes(1000));
            this.destroy(new Error('the upload broke off'));
          },
        });
        await expect(files.write('alice', 'ld', 'wall.png', failing)).rejects.toThrow(
          'the upload broke off',
        );
        const broken = Readable.from(
          (async function* () {
            yield randomBytes(1000);
            throw new Error('the engine died');
          })(),
        );
        await expect(files.write('alice', 'ld', 'new.png', broken)).rejects.toThrow();
        expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('kept');
        expect((await files.list('alice', 'ld')).map((f) => f.name)).toEqual(['wall.png']);
        expect(await files.clearTemporary('alice')).toBe(0);
      });
    });

    describe('removal in two steps', () => {
      it('takes the file out of sight; rollback puts it back, commit deletes it', async () => {
        await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
        const undone = await files.prepareRemoval('alice', 'ld', 'wall.png');
        expect(await files.stat('alice', 'ld', 'wall.png')).toBeUndefined();
        expect(await files.list('alice', 'ld')).toEqual([]);
        await undone.rollback();
        expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('wall');

        const done = await files.prepareRemoval('alice', 'ld', 'wall.png');
        await done.commit();
        expect(await files.stat('alice', 'ld', 'wall.png')).toBeUndefined();
        expect(await files.interruptedRemovals('alice')).toEqual([]);
      });

      it('removes a missing file without complaint', async () => {
        const removal = await files.prepareRemoval('alice', 'ld', 'none.png');
        await removal.commit();
        await (await files.prepareRemoval('alice', 'ld', 'none.png')).rollback();
        expect(await files.list('alice', 'ld')).toEqual([]);
      });

      it('finds the removals a crash left halfway, to finish or undo', async () => {
        await files.write('alice', 'ld', 'a.png', Buffer.from('a'));
        await files.write('alice', 'ld-thumbnails', 'a.png.webp', Buffer.from('thumb'));
        await files.prepareRemoval('alice', 'ld', 'a.png');
        await files.prepareRemoval('alice', 'ld-thumbnails', 'a.png.webp');

        const found = await files.interruptedRemovals('alice');
        expect(found.map((r) => [r.area, r.name]).sort()).toEqual([
          ['ld', 'a.png'],
          ['ld-thumbnails', 'a.png.webp'],
        ]);
        expect(await files.interruptedRemovals('bob')).toEqual([]);
        for (const removal of found) {
          if (removal.area === 'ld') await removal.rollback();
          else await removal.commit();
        }
        expect((await files.readBuffer('alice', 'ld', 'a.png')).toString()).toBe('a');
        expect(await files.stat('alice', 'ld-thumbnails', 'a.png.webp')).toBeUndefined();
        expect(await files.interruptedRemovals('alice')).toEqual([]);
      });
    });

    describe('after a crash', () => {
      it('hides half-written temporary files and clears them, counted', async () => {
        await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
        await under.leaveTemporary('alice', 'ld', 'wall.png');
        await under.leaveTemporary('alice', 'hd', 'big.png');
        expect((await files.list('alice', 'ld')).map((f) => f.name)).toEqual(['wall.png']);
        expect(await files.list('alice', 'hd')).toEqual([]);
        expect(await files.clearTemporary('bob')).toBe(0);
        expect(await files.clearTemporary('alice')).toBe(2);
        expect(await files.clearTemporary('alice')).toBe(0);
        expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('wall');
      });
    });

    describe('scratch folders', () => {
      it('gives a tool a local file to write, then puts it into the store', async () => {
        const data = randomBytes(50_000);
        await withScratch(files, async (scratch) => {
          const output = scratch.newFile('png');
          expect(output.path).toMatch(/\.png$/);
          expect(fs.existsSync(output.path)).toBe(false);
          await fsp.writeFile(output.path, data);
          expect((await output.readBuffer()).equals(data)).toBe(true);

          const stored = await output.putInto('alice', 'hd', 'out.png');
          expect(stored).toMatchObject({ name: 'out.png', bytes: data.length });
          // Out of the scratch folder, into the store.
          expect(fs.existsSync(output.path)).toBe(false);
        });
        expect((await files.readBuffer('alice', 'hd', 'out.png')).equals(data)).toBe(true);
        expect((await files.list('alice', 'hd')).map((f) => f.name)).toEqual(['out.png']);
      });

      it('puts a scratch file over a stored one, replacing it', async () => {
        await files.write('alice', 'input', 'ref.png', Buffer.from('old'));
        await withScratch(files, async (scratch) => {
          const upload = scratch.newFile();
          await fsp.writeFile(upload.path, 'new');
          await upload.putInto('alice', 'input', 'ref.png');
        });
        expect((await files.readBuffer('alice', 'input', 'ref.png')).toString()).toBe('new');
      });

      it('streams bytes into a scratch file, counted, and a failing source rejects', async () => {
        const data = randomBytes(3 * 64 * 1024 + 5);
        await withScratch(files, async (scratch) => {
          const upload = scratch.newFile();
          const parts = [data.subarray(0, 70_000), data.subarray(70_000)];
          expect(await upload.write(Readable.from(parts))).toBe(data.length);
          expect((await upload.readBuffer()).equals(data)).toBe(true);
          const broken = scratch.newFile();
          await expect(
            broken.write(
              (async function* () {
                yield data.subarray(0, 10);
                throw new Error('cut short');
              })(),
            ),
          ).rejects.toThrow('cut short');
        });
      });

      it('gives a tool a local copy of a stored file, which later writes and removals leave alone', async () => {
        const data = randomBytes(30_000);
        await files.write('alice', 'ld', 'wall.png', data);
        await withScratch(files, async (scratch) => {
          const copy = await scratch.copyOf('alice', 'ld', 'wall.png');
          expect((await fsp.readFile(copy)).equals(data)).toBe(true);

          await files.write('alice', 'ld', 'wall.png', Buffer.from('replaced'));
          expect((await fsp.readFile(copy)).equals(data)).toBe(true);
          await (await files.prepareRemoval('alice', 'ld', 'wall.png')).commit();
          expect((await fsp.readFile(copy)).equals(data)).toBe(true);

          await expect(scratch.copyOf('alice', 'ld', 'wall.png')).rejects.toThrow();
          await expect(scratch.copyOf('bob', 'ld', 'none.png')).rejects.toThrow();
        });
      });

      it('removes every file of the folder when it is disposed of, also after an error', async () => {
        await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
        const left: string[] = [];
        await expect(
          withScratch(files, async (scratch) => {
            left.push(await scratch.copyOf('alice', 'ld', 'wall.png'));
            const output = scratch.newFile('jpg');
            await fsp.writeFile(output.path, 'half an image');
            left.push(output.path);
            throw new Error('the engine failed');
          }),
        ).rejects.toThrow('the engine failed');
        for (const file of left) expect(fs.existsSync(file), file).toBe(false);
        // The stored file is not the copy.
        expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('wall');
        expect(await files.clearScratch()).toBe(0);
      });

      it('clears at start the scratch folders a crash left, counted', async () => {
        expect(await files.clearScratch()).toBe(0);
        await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
        const crashed = await files.openScratch();
        const output = crashed.newFile('png');
        await fsp.writeFile(output.path, 'left by a crash');
        const copy = await crashed.copyOf('alice', 'ld', 'wall.png');
        await files.openScratch();

        expect(await files.clearScratch()).toBe(2);
        expect(fs.existsSync(output.path)).toBe(false);
        expect(fs.existsSync(copy)).toBe(false);
        expect(await files.clearScratch()).toBe(0);
        expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('wall');
        // Usable again afterwards.
        await withScratch(files, async (scratch) => {
          const again = scratch.newFile('png');
          await fsp.writeFile(again.path, 'again');
          await again.putInto('alice', 'ld', 'again.png');
        });
        expect((await files.readBuffer('alice', 'ld', 'again.png')).toString()).toBe('again');
      });
    });

    describe('names that are paths', () => {
      /** Every way to reach a file with the given owner, area and name; each must be refused. */
      const uses = (owner: string, area: string, name: string) => {
        const a = area as FileArea;
        return [
          () => files.write(owner, a, name, Buffer.from('x')),
          () => files.write(owner, a, name, Readable.from([Buffer.from('x')])),
          () => files.read(owner, a, name),
          () => files.read(owner, a, name, { start: 0, end: 0 }),
          () => files.readBuffer(owner, a, name),
          () => files.stat(owner, a, name),
          () => files.prepareRemoval(owner, a, name),
          () => withScratch(files, (scratch) => scratch.copyOf(owner, a, name)),
          () =>
            withScratch(files, async (scratch) => {
              const file = scratch.newFile();
              await fsp.writeFile(file.path, 'x');
              return file.putInto(owner, a, name);
            }),
        ];
      };

      it('refuses them everywhere and writes nothing', async () => {
        // A file each trick could reach if it were joined to a path.
        await files.write('alice', 'ld', 'x.png', Buffer.from('target'));
        const cases: [owner: string, area: string, name: string][] = [
          ...TRICK_NAMES.map((name): [string, string, string] => ['alice', 'ld', name]),
          ...TRICK_OWNERS.map((owner): [string, string, string] => [owner, 'ld', 'x.png']),
          ...TRICK_AREAS.map((area): [string, string, string] => ['alice', area, 'x.png']),
        ];
        for (const [owner, area, name] of cases) {
          for (const use of uses(owner, area, name)) {
            await expect(refusal(use), `${use.toString()} ${owner}/${area}/${name}`).resolves.toBe(
              true,
            );
          }
          await expect(refusal(() => files.list(owner, area as FileArea))).resolves.toBe(
            name === 'x.png',
          );
        }
        expect((await files.readBuffer('alice', 'ld', 'x.png')).toString()).toBe('target');
        expect((await files.list('alice', 'ld')).map((f) => f.name)).toEqual(['x.png']);
        expect(await files.clearTemporary('alice')).toBe(0);
        expect(await files.interruptedRemovals('alice')).toEqual([]);
      });

      it('refuses a scratch extension that is a path', async () => {
        await withScratch(files, async (scratch) => {
          for (const extension of ['../png', 'png/x', '.png', 'p ng']) {
            expect(() => scratch.newFile(extension), extension).toThrow();
          }
        });
      });
    });
  });
}

/** Whether a use of the store was refused: thrown, rejected, or (a stream) failed. */
async function refusal(use: () => unknown): Promise<boolean> {
  try {
    const result = use();
    if (result instanceof Readable) await buffer(result);
    else await result;
    return false;
  } catch {
    return true;
  }
}
