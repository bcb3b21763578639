import { useEffect } from 'react';
import { CloseIcon } from '../icons';
import { DELETE_UNDO_MS } from './use-image-deletion';
import type { PendingDeletion } from './use-image-deletion';

export function deletedText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'image' : 'images'} deleted`;
}

/**
 * "N images deleted · Undo" while a deletion can still be undone (Ctrl+Z works too); a bar
 * shrinks over the window. Closing the bar sends the deletion at once.
 */
export function UndoDeleteBar({ pending }: { pending: PendingDeletion | null }) {
  useEffect(() => {
    if (pending === null) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest('input, textarea, [contenteditable="true"]');
      if ((event.ctrlKey || event.metaKey) && event.key === 'z' && !typing) {
        event.preventDefault();
        pending.undo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending]);

  if (pending === null) return null;
  return (
    <div className="undo-bar" role="status" aria-label="Deletion">
      <span className="undo-bar-text">{deletedText(pending.count)}</span>
      <button type="button" className="undo-bar-undo" onClick={pending.undo}>
        Undo
      </button>
      <button
        type="button"
        className="undo-bar-close"
        aria-label="Delete now"
        title="Delete now"
        onClick={pending.confirm}
      >
        <CloseIcon />
      </button>
      <span
        key={pending.id}
        className="undo-bar-timer"
        aria-hidden="true"
        style={{ animationDuration: `${DELETE_UNDO_MS}ms` }}
      />
    </div>
  );
}
