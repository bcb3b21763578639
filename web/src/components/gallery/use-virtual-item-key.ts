import { useCallback } from 'react';

/**
 * The virtualiser's `getItemKey` over `items`: stable while the list and `getKey` are, since the
 * virtualiser recomputes its layout whenever it changes.
 */
export function useVirtualItemKey<T>(
  items: readonly T[],
  getKey: (item: T) => string,
): (index: number) => string | number {
  return useCallback(
    (index: number) => {
      const item = items[index];
      return item === undefined ? index : getKey(item);
    },
    [items, getKey],
  );
}
