/** The query parameter that opens Generate with an uploaded reference (/input links with it). */
export const REFERENCE_PARAM = 'reference';

/** The address of Generate with the uploaded reference `filename` loaded. */
export function generateWithReference(filename: string): string {
  return `/generate?${new URLSearchParams({ [REFERENCE_PARAM]: filename })}`;
}

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
