import { TEXT_BUNDLES } from '@tessera/contract';
import { useEffect } from 'react';
import { useTexts } from '../../lib/i18n';
import { CloseIcon } from '../icons';
import { DELETE_UNDO_MS } from './use-image-deletion';
import type { PendingDeletion } from './use-image-deletion';

/**
 * "N images deleted · Undo" while a deletion can still be undone (Ctrl+Z works too); a bar
 * shrinks over the window. Closing the bar sends the deletion at once.
 */
export function UndoDeleteBar({ pending }: { pending: PendingDeletion | null }) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
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
    <div className="undo-bar" role="status" aria-label={texts.deletion}>
      <span className="undo-bar-text">{texts.deleted(pending.count)}</span>
      <button type="button" className="undo-bar-undo" onClick={pending.undo}>
        {texts.undo}
      </button>
      <button
        type="button"
        className="undo-bar-close"
        aria-label={texts.deleteNow}
        title={texts.deleteNow}
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
