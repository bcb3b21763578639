import { useCallback, useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

export interface KeptPlaces {
  /** Deleted images whose place the gallery keeps, empty, while the pointer is over it. */
  kept: ReadonlySet<string>;
  /** For the element the pointer is over: the images, not the toolbar above them. */
  pointerHandlers: { onPointerOver: () => void; onPointerLeave: () => void };
}

/**
 * Keeps a deleted image's place until the pointer leaves the gallery, as mail clients do: were
 * the grid to reflow at once, the next image's Delete would slide under the pointer and a quick
 * second click would delete it too (issue 22, part 8). Images hidden while the pointer is
 * elsewhere (Delete Selection, the keyboard) leave at once.
 */
export function useKeptPlaces(hidden: ReadonlySet<string>): KeptPlaces {
  const [pointerOver, setPointerOver] = useState(false);
  const [kept, setKept] = useState(NONE);
  const [seen, setSeen] = useState(hidden);
  // Derived while rendering, so the grid never paints the reflow it is there to prevent.
  if (seen !== hidden) {
    setSeen(hidden);
    const added = [...hidden].filter((name) => !seen.has(name));
    if (pointerOver && added.length > 0) setKept(new Set([...kept, ...added]));
  }
  const onPointerOver = useCallback(() => setPointerOver(true), []);
  const onPointerLeave = useCallback(() => {
    setPointerOver(false);
    setKept(NONE);
  }, []);
  return { kept, pointerHandlers: { onPointerOver, onPointerLeave } };
}
