import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSafeFileName } from '@tessera/contract';
import { diskFullPoint, faultPoint } from '../runtime/faults.js';
import type {
  ByteRange,
  FileArea,
  FileStore,
  InterruptedRemoval,
  PendingRemoval,
  Scratch,
  StoredFile,
} from './file-store.js';
import { FILE_AREAS, checkedArea, checkedName, HIDDEN_PREFIX, REMOVING } from './places.js';
import { ScratchFolders } from './scratch-folders.js';

export { UnsafePathError } from './places.js';

const TEMPORARY = /^\.tmp-[0-9a-f]{12}-/;

/** Files under `<root>/<user>/<area>/<name>`, scratch folders under `scratchRoot`. */
export class LocalFileStore implements FileStore {
  private readonly scratch: ScratchFolders;

  /**
   * The scratch folders are beside the files by default (`<root>/../tmp`): on the same disk, a
   * scratch file goes into the store by a rename and a stored file comes out by a hard link,
   * never a copy of hundreds of megabytes.
   */
  constructor(
    private readonly root: string,
    scratchRoot = path.join(path.dirname(root), 'tmp'),
  ) {
    this.scratch = new ScratchFolders(scratchRoot, {
      copyOut: (owner, area, name, local) => this.linkOut(owner, area, name, local),
      putIn: (local, owner, area, name) => this.moveIn(local, owner, area, name),
    });
  }

  private dir(owner: string, area: FileArea): string {
    return path.join(this.root, ...checkedArea(owner, area));
  }

  private file(owner: string, area: FileArea, name: string): string {
    const dir = this.dir(owner, area);
    return path.join(dir, checkedName(name));
  }

  async write(
    owner: string,
    area: FileArea,
    name: string,
    data: Buffer | Readable,
  ): Promise<StoredFile> {
    const target = this.file(owner, area, name);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(
      path.dirname(target),
      `${HIDDEN_PREFIX}tmp-${randomBytes(6).toString('hex')}-${name}`,
    );
    try {
      diskFullPoint(`${area}:write`, temp);
      await pipeline(
        Buffer.isBuffer(data) ? Readable.from([data]) : data,
        fs.createWriteStream(temp, { flags: 'wx', flush: true }),
      );
      faultPoint(`${area}:temp-written`);
      await fsp.rename(temp, target);
      await syncDirectory(path.dirname(target));
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
    const stats = await fsp.stat(target);
    return { name, bytes: stats.size, modifiedAt: stats.mtime };
  }

  read(owner: string, area: FileArea, name: string, range?: ByteRange): Readable {
    const file = this.file(owner, area, name);
    return fs.createReadStream(file, range && { start: range.start, end: range.end });
  }

  readBuffer(owner: string, area: FileArea, name: string): Promise<Buffer> {
    return fsp.readFile(this.file(owner, area, name));
  }

  async check(): Promise<void> {
    const access = (folder: string) => fsp.access(folder, fs.constants.R_OK | fs.constants.W_OK);
    try {
      await access(this.root);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await access(path.dirname(this.root));
    }
  }

  async stat(owner: string, area: FileArea, name: string): Promise<StoredFile | undefined> {
    try {
      const stats = await fsp.stat(this.file(owner, area, name));
      return stats.isFile() ? { name, bytes: stats.size, modifiedAt: stats.mtime } : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async list(owner: string, area: FileArea): Promise<StoredFile[]> {
    const dir = this.dir(owner, area);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    const files: StoredFile[] = [];
    for (const entry of entries) {
      // Only regular files with valid names: links and folders placed there are never followed.
      if (!entry.isFile() || !isSafeFileName(entry.name)) continue;
      const stats = await fsp.stat(path.join(dir, entry.name)).catch(() => undefined);
      if (stats) files.push({ name: entry.name, bytes: stats.size, modifiedAt: stats.mtime });
    }
    return files;
  }

  async prepareRemoval(owner: string, area: FileArea, name: string): Promise<PendingRemoval> {
    const target = this.file(owner, area, name);
    const aside = path.join(
      path.dirname(target),
      `${HIDDEN_PREFIX}removing-${randomBytes(6).toString('hex')}-${name}`,
    );
    let moved = true;
    try {
      await fsp.rename(target, aside);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      moved = false;
    }
    return moved ? removalOf(aside, target) : NOTHING_TO_REMOVE;
  }

  async clearTemporary(owner: string): Promise<number> {
    let cleared = 0;
    for (const area of FILE_AREAS) {
      for (const name of await this.hiddenNames(owner, area)) {
        if (!TEMPORARY.test(name)) continue;
        await fsp.rm(path.join(this.dir(owner, area), name), { force: true });
        cleared++;
      }
    }
    return cleared;
  }

  async interruptedRemovals(owner: string): Promise<InterruptedRemoval[]> {
    const found: InterruptedRemoval[] = [];
    for (const area of FILE_AREAS) {
      for (const hidden of await this.hiddenNames(owner, area)) {
        const name = REMOVING.exec(hidden)?.[1];
        if (!name || !isSafeFileName(name)) continue;
        const dir = this.dir(owner, area);
        found.push({ area, name, ...removalOf(path.join(dir, hidden), path.join(dir, name)) });
      }
    }
    return found;
  }

  openScratch(): Promise<Scratch> {
    return this.scratch.open();
  }

  clearScratch(): Promise<number> {
    return this.scratch.clear();
  }

  /**
   * A hard link, not a copy: the store never changes a stored file in place (a write renames a
   * new file over the name, a removal renames it away), so the linked bytes stay those of the
   * moment of the copy, as an object store's download would.
   */
  private async linkOut(owner: string, area: FileArea, name: string, local: string) {
    const stored = this.file(owner, area, name);
    try {
      await fsp.link(stored, local);
    } catch (err) {
      if (isNotFound(err)) throw err;
      // Another disk, or a file system without hard links.
      await fsp.copyFile(stored, local);
    }
  }

  /**
   * Puts a scratch file into the store with the steps of `write`, but by renaming it: flushed
   * to disk (the tool that wrote it may not have), renamed over `name`, the folder flushed.
   */
  private async moveIn(
    local: string,
    owner: string,
    area: FileArea,
    name: string,
  ): Promise<StoredFile> {
    const target = this.file(owner, area, name);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await syncFile(local);
    faultPoint(`${area}:temp-written`);
    try {
      await fsp.rename(local, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // The scratch folder is on another disk than the files: copy instead.
      const stored = await this.write(owner, area, name, fs.createReadStream(local));
      await fsp.rm(local, { force: true });
      return stored;
    }
    await syncDirectory(path.dirname(target));
    const stats = await fsp.stat(target);
    return { name, bytes: stats.size, modifiedAt: stats.mtime };
  }

  private async hiddenNames(owner: string, area: FileArea): Promise<string[]> {
    try {
      const entries = await fsp.readdir(this.dir(owner, area), { withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && e.name.startsWith(HIDDEN_PREFIX))
        .map((e) => e.name);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }
}

/** The removal of a file that was not there: nothing to commit or roll back. */
const NOTHING_TO_REMOVE: PendingRemoval = {
  commit: () => Promise.resolve(),
  rollback: () => Promise.resolve(),
};

function removalOf(aside: string, target: string): PendingRemoval {
  return {
    commit: async () => {
      await fsp.rm(aside, { force: true });
    },
    rollback: async () => {
      await fsp.rename(aside, target);
    },
  };
}

/** Flushes a file's bytes to disk. */
async function syncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in this folder durable: without it a crash can forget the new name. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isNotFound(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
