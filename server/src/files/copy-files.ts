import { faultPoint } from '../runtime/faults.js';
import type { FileStore } from './file-store.js';
import { FILE_AREAS } from './places.js';

export interface FileCount {
  /** Files of the source. */
  seen: number;
  /** Files this run copied. */
  copied: number;
  /** Files the target held already, of the same size (an earlier run's). */
  skipped: number;
  /** Bytes this run copied. */
  bytes: number;
  /** Files listed but gone when read (removed meanwhile): only with `skipVanished`. */
  vanished: number;
}

export interface CopyFilesOptions {
  onProgress?: (count: FileCount) => void;
  /**
   * A file removed between the listing and its copy (the source is in use) is counted and
   * skipped rather than failing the copy.
   */
  skipVanished?: boolean;
}

/**
 * Copies the files of these owners from `source` to `target`, area by area, each streamed (read
 * → write) so no file sits whole in memory. A file the target already holds with the same size
 * is skipped: the store's `write` is atomic, so a file of the right size there is whole, and a
 * rerun after an interruption continues with the files still missing.
 */
export async function copyFiles(
  source: FileStore,
  target: FileStore,
  owners: readonly string[],
  options: CopyFilesOptions = {},
): Promise<FileCount> {
  const count: FileCount = { seen: 0, copied: 0, skipped: 0, bytes: 0, vanished: 0 };
  for (const owner of owners) {
    for (const area of FILE_AREAS) {
      for (const file of await source.list(owner, area)) {
        count.seen++;
        const there = await target.stat(owner, area, file.name);
        if (there?.bytes === file.bytes) {
          count.skipped++;
        } else {
          try {
            await target.write(owner, area, file.name, source.read(owner, area, file.name));
          } catch (err) {
            if (!options.skipVanished || (await source.stat(owner, area, file.name))) throw err;
            count.vanished++;
            continue;
          }
          count.copied++;
          count.bytes += file.bytes;
          // The crash test stops the copy here, after a given number of files.
          faultPoint(`migrate-store:files:${count.copied + count.skipped}`);
        }
        options.onProgress?.({ ...count });
      }
    }
  }
  return count;
}
