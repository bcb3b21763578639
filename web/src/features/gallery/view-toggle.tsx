import type { ViewMode } from './view-mode';
import { GridIcon, ListIcon } from './icons';

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
      <button
        type="button"
        className="view-toggle-option"
        aria-pressed={mode === 'gallery'}
        onClick={() => onChange('gallery')}
      >
        <GridIcon />
        Gallery
      </button>
      <button
        type="button"
        className="view-toggle-option"
        aria-pressed={mode === 'list'}
        onClick={() => onChange('list')}
      >
        <ListIcon />
        List
      </button>
    </div>
  );
}
