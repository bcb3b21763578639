import { TEXT_BUNDLES } from '@tessera/contract';
import { useState } from 'react';
import { useTexts } from '../lib/i18n';

/**
 * A secret shown this once (an API token, a webhook's signing secret, a generated password),
 * named by `label`, with a button that copies it.
 */
export function ShownOnce({ value, label }: { value: string; label: string }) {
  const T = useTexts(TEXT_BUNDLES.dialog);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="shown-once">
      <output aria-label={label}>{value}</output>
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
