import type { FileStore } from '../files/file-store.js';
import { FILE_AREAS } from '../files/places.js';
import type { OwnerFiles } from './user-ports.js';

/** A removed user's files in the file store, area by area (issue 29: remove and delete). */
export function ownerFilesIn(files: FileStore): OwnerFiles {
  return {
    async removeAll(username) {
      let removed = 0;
      for (const area of FILE_AREAS) {
        for (const file of await files.list(username, area)) {
          const removal = await files.prepareRemoval(username, area, file.name);
          await removal.commit();
          removed += 1;
        }
      }
      return removed;
    },
  };
}
