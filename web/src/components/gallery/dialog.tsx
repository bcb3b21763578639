import { TEXT_BUNDLES } from '@tessera/contract';
import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTexts } from '../../lib/i18n';
import { CloseIcon } from '../icons';
import './dialog.css';
import './gallery.css';

export interface DialogProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/**
 * A modal on the native <dialog> opened with showModal(): the browser traps focus, makes the page
 * behind inert and closes it on Escape (checklist: accessibility). Mounted while open; closing
 * (Escape, the close button, a click on the backdrop) calls `onClose`, which unmounts it.
 */
export function Dialog({ title, onClose, children, className }: DialogProps) {
  const texts = useTexts(TEXT_BUNDLES.dialog);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    // jsdom (component tests) has no showModal; the attribute still shows the content.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: React unmounts the dialog through onClose rather than the browser closing it.
        event.preventDefault();
        close.current();
      }}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (event.target === event.currentTarget) close.current();
      }}
    >
      <div className="dialog-body">
        <header className="dialog-header">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <button
            type="button"
            className="icon-button"
            aria-label={texts.close}
            onClick={() => close.current()}
          >
            <CloseIcon />
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
