import { useCallback, useState } from 'react';

export type ViewMode = 'gallery' | 'list';

function read(storageKey: string): ViewMode {
  try {
    return sessionStorage.getItem(storageKey) === 'list' ? 'list' : 'gallery';
  } catch {
    return 'gallery';
  }
}

/** Gallery or List, remembered for the browser tab so coming back to a screen keeps it. */
export function useViewMode(storageKey: string): [ViewMode, (mode: ViewMode) => void] {
  const [mode, setMode] = useState<ViewMode>(() => read(storageKey));
  const change = useCallback(
    (next: ViewMode) => {
      setMode(next);
      try {
        sessionStorage.setItem(storageKey, next);
      } catch {
        // Storage may be unavailable (private mode); the choice then lasts for this visit only.
      }
    },
    [storageKey],
  );
  return [mode, change];
}
