// "Use these settings" (M-remix): the details modal hands an image's settings to Generate through
// the router state. The modal owns this shape; Generate only reads it, so the import runs one way.

/** The router state that opens Generate with an image's settings ("Use these settings"). */
export interface RemixState {
  remix: { filename: string; metadata: Record<string, unknown>; tags: readonly string[] };
}

/** Reads a remix from the router state; anything else (a reload's stale state, say) is none. */
export function remixOf(state: unknown): RemixState['remix'] | null {
  if (typeof state !== 'object' || state === null || !('remix' in state)) return null;
  const remix = (state as { remix: unknown }).remix;
  if (typeof remix !== 'object' || remix === null) return null;
  const { filename, metadata, tags } = remix as Record<string, unknown>;
  if (typeof filename !== 'string' || typeof metadata !== 'object' || metadata === null) {
    return null;
  }
  const tagIds = Array.isArray(tags) ? tags.filter((tag) => typeof tag === 'string') : [];
  return { filename, metadata: metadata as Record<string, unknown>, tags: tagIds };
}
