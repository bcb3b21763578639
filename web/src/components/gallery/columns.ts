import { useSyncExternalStore } from 'react';

/**
 * SPEC §2 / §9: the masonry grid has 5 columns, 3 below 1100 px, 2 below 700 px, 1 below 500 px
 * of window width. Ordered from the narrowest: the first limit the width is under wins.
 */
export const GRID_BREAKPOINTS: readonly { below: number; columns: number }[] = [
  { below: 500, columns: 1 },
  { below: 700, columns: 2 },
  { below: 1100, columns: 3 },
];
export const DEFAULT_GRID_COLUMNS = 5;

export function columnCountForWidth(width: number): number {
  return GRID_BREAKPOINTS.find((step) => width < step.below)?.columns ?? DEFAULT_GRID_COLUMNS;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The grid's column count for the current window width; re-renders only when it changes. */
export function useColumnCount(): number {
  return useSyncExternalStore(subscribe, () => columnCountForWidth(window.innerWidth));
}
