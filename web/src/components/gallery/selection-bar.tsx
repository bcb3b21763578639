import type { ReactNode } from 'react';

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
  return (
    <div className="gallery-selection">
      <span className="gallery-selection-count">{count} selected</span>
      <button type="button" className="button button-small" onClick={onClear}>
        Clear selection
      </button>
      {children}
    </div>
  );
}
