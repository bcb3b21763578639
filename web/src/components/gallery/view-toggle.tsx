import { TEXT_BUNDLES } from '@tessera/contract';
import type { ReactNode } from 'react';
import { useTexts } from '../../lib/i18n';
import { GridIcon, ListIcon } from '../icons';
import type { ViewMode } from './view-mode';

const OPTIONS: readonly { mode: ViewMode; label: 'gallery' | 'list'; icon: ReactNode }[] = [
  { mode: 'gallery', label: 'gallery', icon: <GridIcon /> },
  { mode: 'list', label: 'list', icon: <ListIcon /> },
];

/** SPEC §2 Gallery/List toggle (checklist D1, O1): two pressed-state buttons. */
export function ViewToggle({
  mode,
  onChange,
}: {
  mode: ViewMode;
  onChange: (mode: ViewMode) => void;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <div className="view-toggle" role="group" aria-label={texts.view}>
      {OPTIONS.map((option) => (
        <button
          key={option.mode}
          type="button"
          className="view-toggle-option"
          aria-pressed={mode === option.mode}
          onClick={() => onChange(option.mode)}
        >
          {option.icon}
          {texts[option.label]}
        </button>
      ))}
    </div>
  );
}
