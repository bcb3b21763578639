import { TEXT_BUNDLES } from '@tessera/contract';
import type { ReactNode } from 'react';
import { useTexts } from '../../lib/i18n';

/** The toolbar's selection actions (checklist D8): the count, Clear selection, and the caller's. */
export function SelectionBar({
  count,
  onClear,
  children,
}: {
  count: number;
  onClear: () => void;
  children: ReactNode;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <div className="gallery-selection">
      <span className="gallery-selection-count">{texts.selectedCount(count)}</span>
      <button type="button" className="button button-small" onClick={onClear}>
        {texts.clearSelection}
      </button>
      {children}
    </div>
  );
}
