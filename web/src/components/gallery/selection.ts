import { useCallback, useMemo, useState } from 'react';

export interface Selection {
  /** The selected keys (image file names); a new Set only when the selection changes. */
  readonly selected: ReadonlySet<string>;
  /** Stable for the component's life, so memoised items keep their props. */
  readonly toggle: (key: string) => void;
  readonly clear: () => void;
  /** Drops keys, e.g. of images that were deleted. */
  readonly remove: (keys: Iterable<string>) => void;
  /** Selects exactly these keys (select all). */
  readonly replace: (keys: Iterable<string>) => void;
  /** Selects these keys too, keeping the rest (select a series). */
  readonly add: (keys: Iterable<string>) => void;
}

/** Toggles a key in a set, returning a new set. */
export function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** The selected images of a gallery, kept by file name so a filter or reload does not lose them. */
export function useSelection(): Selection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => setSelected((current) => toggled(current, key)), []);
  const clear = useCallback(
    () => setSelected((current) => (current.size === 0 ? current : new Set())),
    [],
  );
  const remove = useCallback((keys: Iterable<string>) => {
    setSelected((current) => {
      let next: Set<string> | undefined;
      for (const key of keys) {
        if (!current.has(key)) continue;
        next ??= new Set(current);
        next.delete(key);
      }
      return next ?? current;
    });
  }, []);
  const replace = useCallback((keys: Iterable<string>) => setSelected(new Set(keys)), []);
  const add = useCallback((keys: Iterable<string>) => {
    setSelected((current) => {
      let next: Set<string> | undefined;
      for (const key of keys) {
        if (current.has(key)) continue;
        next ??= new Set(current);
        next.add(key);
      }
      return next ?? current;
    });
  }, []);
  return useMemo(
    () => ({ selected, toggle, clear, remove, replace, add }),
    [selected, toggle, clear, remove, replace, add],
  );
}
