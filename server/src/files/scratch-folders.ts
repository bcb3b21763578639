import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileArea, Scratch, ScratchFile, StoredFile } from './file-store.js';
import { UnsafePathError } from './places.js';

/** What a scratch file's name may end in: a plain extension such as `png`. */
const EXTENSION = /^[A-Za-z0-9]{1,10}$/;

/** How files cross between a scratch folder and the store: what differs from store to store. */
export interface ScratchTransfers {
  /**
   * Makes `local` (nothing there yet) hold the stored file's bytes as they are now. Validates
   * owner, area and name before it touches the disk; rejects when the file is not stored.
   */
  copyOut(owner: string, area: FileArea, name: string, local: string): Promise<void>;
  /** Puts the local file into the store under `name`, and takes it out of the scratch folder. */
  putIn(local: string, owner: string, area: FileArea, name: string): Promise<StoredFile>;
}

/**
 * The scratch folders of a store, on this machine's disk under `root`, one per piece of work;
 * the same for every store, which differ only in how files come in and go out.
 */
export class ScratchFolders {
  constructor(
    private readonly root: string,
    private readonly transfers: ScratchTransfers,
  ) {}

  async open(): Promise<Scratch> {
    await fsp.mkdir(this.root, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.root, 'work-'));
    const unique = () => randomBytes(6).toString('hex');
    return {
      newFile: (extension) => {
        if (extension !== undefined && !EXTENSION.test(extension)) {
          throw new UnsafePathError(`Invalid extension: ${extension}`);
        }
        return this.file(path.join(dir, extension ? `${unique()}.${extension}` : unique()));
      },
      copyOf: async (owner, area, name) => {
        const copy = path.join(dir, `${unique()}-${name}`);
        await this.transfers.copyOut(owner, area, name, copy);
        return copy;
      },
      dispose: () => fsp.rm(dir, { recursive: true, force: true }),
    };
  }

  /** Removes every scratch folder (those a crash left); how many there were. */
  async clear(): Promise<number> {
    let left: string[];
    try {
      left = await fsp.readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    await fsp.rm(this.root, { recursive: true, force: true });
    return left.length;
  }

  private file(local: string): ScratchFile {
    return {
      path: local,
      readBuffer: () => fsp.readFile(local),
      write: async (source) => {
        await pipeline(source, fs.createWriteStream(local));
        return (await fsp.stat(local)).size;
      },
      putInto: (owner, area, name) => this.transfers.putIn(local, owner, area, name),
    };
  }
}
