import { TEXT_BUNDLES } from '@tessera/contract';
import { useRef, useState } from 'react';
import { useTexts } from '../lib/i18n';

/**
 * A secret shown this once (an API token, a webhook's signing secret, a generated password),
 * named by `label`, with a button that copies it. Where the page may not write the clipboard (a
 * server reached over plain HTTP, a browser that refuses), the button selects the secret
 * instead, for the person to copy with their keyboard.
 */
export function ShownOnce({ value, label }: { value: string; label: string }) {
  const T = useTexts(TEXT_BUNDLES.dialog);
  const [copied, setCopied] = useState(false);
  const shown = useRef<HTMLOutputElement>(null);
  const select = () => {
    const selection = window.getSelection();
    if (!shown.current || !selection) return;
    selection.selectAllChildren(shown.current);
  };
  const copy = async () => {
    try {
      // Undefined outside a secure context, whatever the types say.
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(value);
      setCopied(true);
    } catch {
      select();
    }
  };
  return (
    <div className="shown-once">
      <output ref={shown} aria-label={label}>
        {value}
      </output>
      <button type="button" className="button" onClick={() => void copy()}>
        {copied ? T.copied : T.copy}
      </button>
    </div>
  );
}

/** The foot of a dialog that shows a secret once: closing it forgets the secret. */
export function DoneFooter({ onClose }: { onClose: () => void }) {
  const T = useTexts(TEXT_BUNDLES.dialog);
  return (
    <div className="dialog-actions">
      <button type="button" className="button button-primary" onClick={onClose}>
        {T.done}
      </button>
    </div>
  );
}
