import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSafeFileName, isValidUsername } from '@tessera/contract';
import { faultPoint } from '../faults.js';
import type {
  ByteRange,
  FileArea,
  FileStore,
  InterruptedRemoval,
  PendingRemoval,
  StoredFile,
} from './file-store.js';

const AREAS: readonly FileArea[] = ['input', 'ld', 'hd', 'ld-thumbnails', 'hd-thumbnails'];
/** Temporary and to-be-removed files start with this, which no valid file name may. */
const HIDDEN_PREFIX = '.';
const TEMPORARY = /^\.tmp-[0-9a-f]{12}-/;
const REMOVING = /^\.removing-[0-9a-f]{12}-(.+)$/;

export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/** Files under `<root>/<user>/<area>/<name>`. */
export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private dir(owner: string, area: FileArea): string {
    if (!isValidUsername(owner)) throw new UnsafePathError(`Invalid owner: ${owner}`);
    if (!AREAS.includes(area)) throw new UnsafePathError(`Invalid area: ${area}`);
    return path.join(this.root, owner, area);
  }

  private file(owner: string, area: FileArea, name: string): string {
    if (!isSafeFileName(name)) throw new UnsafePathError(`Invalid file name: ${name}`);
    return path.join(this.dir(owner, area), name);
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

  localPath(owner: string, area: FileArea, name: string): string {
    return this.file(owner, area, name);
  }

  read(owner: string, area: FileArea, name: string, range?: ByteRange): Readable {
    const file = this.file(owner, area, name);
    return fs.createReadStream(file, range && { start: range.start, end: range.end });
  }

  readBuffer(owner: string, area: FileArea, name: string): Promise<Buffer> {
    return fsp.readFile(this.file(owner, area, name));
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
    for (const area of AREAS) {
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
    for (const area of AREAS) {
      for (const hidden of await this.hiddenNames(owner, area)) {
        const name = REMOVING.exec(hidden)?.[1];
        if (!name || !isSafeFileName(name)) continue;
        const dir = this.dir(owner, area);
        found.push({ area, name, ...removalOf(path.join(dir, hidden), path.join(dir, name)) });
      }
    }
    return found;
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
