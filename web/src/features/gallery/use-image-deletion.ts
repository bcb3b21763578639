import { useCallback, useEffect, useRef, useState } from 'react';

/** Commands in flight at once when many images are deleted: steady, without flooding the broker. */
const PARALLEL_DELETES = 4;

/**
 * Deleting gallery images one by one or as a selection. Each image is marked busy while its
 * command runs; a success is handed to `onDeleted`, a failure is logged only (SPEC §8, D13).
 */
export function useImageDeletion(
  deleteOne: (filename: string) => Promise<void>,
  onDeleted: (filename: string) => void,
): {
  deleting: ReadonlySet<string>;
  deleteImages: (filenames: readonly string[]) => Promise<void>;
} {
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  // The latest callbacks, read when a deletion runs, so `deleteImages` stays stable.
  const latest = useRef({ deleteOne, onDeleted });
  useEffect(() => {
    latest.current = { deleteOne, onDeleted };
  });

  const deleteImages = useCallback(async (filenames: readonly string[]) => {
    const queue = [...new Set(filenames)];
    setDeleting((current) => new Set([...current, ...queue]));
    const settle = (filename: string) =>
      setDeleting((current) => {
        const next = new Set(current);
        next.delete(filename);
        return next;
      });
    const worker = async () => {
      for (let filename = queue.shift(); filename !== undefined; filename = queue.shift()) {
        try {
          await latest.current.deleteOne(filename);
          latest.current.onDeleted(filename);
        } catch (error) {
          console.error(`Deleting ${filename} failed:`, error);
        } finally {
          settle(filename);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, queue.length) }, worker));
  }, []);

  return { deleting, deleteImages };
}
