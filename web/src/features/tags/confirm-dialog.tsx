import { TEXT_BUNDLES } from '@tessera/contract';
import type { ReactNode } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { useTexts } from '../../lib/i18n';

/** Asks before a destructive step; confirming closes it and leaves the step to `onConfirm`. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  return (
    <Dialog title={title} onClose={onClose} className="confirm-dialog">
      <div className="confirm-text">{children}</div>
      <div className="dialog-actions">
        {/* Cancel first and focused: Enter on an open confirmation must not destroy anything. */}
        <button type="button" className="button" onClick={onClose} autoFocus>
          {texts.cancel}
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
