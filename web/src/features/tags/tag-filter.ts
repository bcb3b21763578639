import type { Tag } from '@tessera/contract';
import { useCallback, useMemo, useState } from 'react';

/**
 * SPEC §4 (checklist T4): an image is shown when any of its tags is enabled, or when no tag is.
 * With nothing enabled the very same list comes back, so nothing downstream recomputes.
 */
export function filterImagesByTags<T extends { tags: readonly string[] }>(
  images: readonly T[],
  enabled: ReadonlySet<string>,
): readonly T[] {
  if (enabled.size === 0) return images;
  return images.filter((image) => image.tags.some((id) => enabled.has(id)));
}

export interface TagFilter {
  /** The enabled tags that still exist: a deleted tag stops filtering by itself. */
  enabled: ReadonlySet<string>;
  /** Stable: clicking a tag toggles it (checklist T3). */
  toggle: (id: string) => void;
  clear: () => void;
}

/** The tag filter of a gallery, client-only state as SPEC §3 has it (isEnabled). */
export function useTagFilter(tags: readonly Tag[]): TagFilter {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const clear = useCallback(() => setChosen(new Set()), []);
  const enabled = useMemo(() => {
    const existing = new Set(tags.map((tag) => tag.id));
    const kept = [...chosen].filter((id) => existing.has(id));
    return kept.length === chosen.size ? chosen : new Set(kept);
  }, [chosen, tags]);
  return { enabled, toggle, clear };
}
