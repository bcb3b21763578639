import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

/** Commands in flight at once when many images are deleted: steady, without flooding the broker. */
const PARALLEL_DELETES = 4;

/** How long a deletion can be undone before its commands are sent. */
export const DELETE_UNDO_MS = 6000;

/** The deletion waiting for its undo window to end, as the undo bar shows it. */
export interface PendingDeletion {
  /** Grows with every deletion joining the group, so the bar restarts its window. */
  id: number;
  count: number;
  /** Brings the images back; nothing was sent. */
  undo: () => void;
  /** Ends the undo window now and sends the commands (the bar's close button). */
  confirm: () => void;
}

export interface ImageDeletion {
  /** Images whose delete command is in flight. */
  deleting: ReadonlySet<string>;
  /** Images the gallery no longer shows: waiting for the undo window to end, or being deleted. */
  hidden: ReadonlySet<string>;
  /**
   * Hides the images at once; the delete commands go out when the undo window ends. Images
   * deleted while a window is open join its group, and the window starts anew.
   */
  deleteImages: (filenames: readonly string[]) => void;
  /** The deletion that can still be undone, or null. */
  pending: PendingDeletion | null;
}

function without(set: ReadonlySet<string>, names: Iterable<string>): ReadonlySet<string> {
  const next = new Set(set);
  for (const name of names) next.delete(name);
  return next;
}

/**
 * Deleting gallery images one by one or as a selection, with a way back: the images disappear at
 * once, and their delete commands (SPEC's own, unchanged) are sent only when the undo window
 * ends, when the user confirms, or when the screen closes. Every deletion made inside the window
 * joins one group, undone together: a quick second click never commits the first. A
 * success is handed to `onDeleted`; a failure is logged only (SPEC §8, D13) and the image shows
 * again.
 */
export function useImageDeletion(
  deleteOne: (filename: string) => Promise<void>,
  onDeleted: (filename: string) => void,
): ImageDeletion {
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [pending, setPending] = useState<{ id: number; filenames: readonly string[] } | null>(null);
  // The latest callbacks, read when a deletion runs, so the functions returned stay stable.
  const latest = useRef({ deleteOne, onDeleted });
  useEffect(() => {
    latest.current = { deleteOne, onDeleted };
  });
  // The waiting deletion as the timers and the unmount see it, without a stale closure.
  const waiting = useRef<{ id: number; filenames: readonly string[]; timer: number } | null>(null);
  const lastId = useRef(0);

  const send = useCallback(async (filenames: readonly string[]) => {
    const queue = [...filenames];
    setDeleting((current) => new Set([...current, ...queue]));
    const settle = (filename: string) => {
      setDeleting((current) => without(current, [filename]));
      setHidden((current) => without(current, [filename]));
    };
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

  /** Ends the undo window of the waiting deletion, if it is `id` (or any, without an id). */
  const flush = useCallback(
    (id?: number) => {
      const current = waiting.current;
      if (current === null || (id !== undefined && current.id !== id)) return;
      window.clearTimeout(current.timer);
      waiting.current = null;
      setPending(null);
      void send(current.filenames);
    },
    [send],
  );

  const deleteImages = useCallback(
    (filenames: readonly string[]) => {
      const names = [...new Set(filenames)];
      if (names.length === 0) return;
      // One group per window: a deletion inside it joins the waiting one (issue 22, part 8).
      const before = waiting.current;
      if (before !== null) window.clearTimeout(before.timer);
      const group = [...new Set([...(before?.filenames ?? []), ...names])];
      const id = ++lastId.current;
      const timer = window.setTimeout(() => flush(id), DELETE_UNDO_MS);
      waiting.current = { id, filenames: group, timer };
      setHidden((current) => new Set([...current, ...names]));
      setPending({ id, filenames: group });
    },
    [flush],
  );

  const undo = useCallback((id: number) => {
    const current = waiting.current;
    if (current === null || current.id !== id) return;
    window.clearTimeout(current.timer);
    waiting.current = null;
    setPending(null);
    setHidden((shown) => without(shown, current.filenames));
  }, []);

  // Leaving the screen ends the window: the user chose to delete, and the client outlives it.
  useEffect(() => () => flush(), [flush]);

  // One object per deletion, so the undo bar's key listener is set once, not on every render.
  const shownPending = useMemo(
    () =>
      pending === null
        ? null
        : {
            id: pending.id,
            count: pending.filenames.length,
            undo: () => undo(pending.id),
            confirm: () => flush(pending.id),
          },
    [pending, undo, flush],
  );

  return { deleting, hidden, deleteImages, pending: shownPending };
}
