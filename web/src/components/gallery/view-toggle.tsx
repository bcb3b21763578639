import type { ReactNode } from 'react';
import { GridIcon, ListIcon } from '../icons';
import type { ViewMode } from './view-mode';

const OPTIONS: readonly { mode: ViewMode; label: string; icon: ReactNode }[] = [
  { mode: 'gallery', label: 'Gallery', icon: <GridIcon /> },
  { mode: 'list', label: 'List', icon: <ListIcon /> },
];

/** SPEC §2 Gallery/List toggle (checklist D1, O1): two pressed-state buttons. */
export function ViewToggle({
  mode,
  onChange,
}: {
  mode: ViewMode;
  onChange: (mode: ViewMode) => void;
}) {
  return (
    <div className="view-toggle" role="group" aria-label="View">
      {OPTIONS.map((option) => (
        <button
          key={option.mode}
          type="button"
          className="view-toggle-option"
          aria-pressed={mode === option.mode}
          onClick={() => onChange(option.mode)}
        >
          {option.icon}
          {option.label}
        </button>
      ))}
    </div>
  );
}
