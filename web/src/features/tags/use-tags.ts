import type { Tag } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { loadAllTags } from '../../lib/api/tags';
import { useMessaging } from '../../lib/messaging';

/** The query key of the user's tag list; invalidate it after a tag command. */
export const TAGS_QUERY_KEY = ['tags'] as const;

/** The full key of one user's tag list. */
export function tagsQueryKey(user: string | undefined) {
  return [...TAGS_QUERY_KEY, user] as const;
}

const NO_TAGS: Tag[] = [];

/** The signed-in user's tags, shared by every screen that shows or picks tags. */
export function useTags(): { tags: Tag[]; isLoading: boolean; error: unknown } {
  const client = useMessaging();
  const query = useQuery({
    queryKey: tagsQueryKey(client?.user),
    queryFn: () => (client ? loadAllTags(client) : Promise.resolve([])),
    enabled: client !== null,
    // One list-tag per load: tiles, tables and pickers that mount later read the cache rather
    // than fetch again. The list changes only through this client's tag commands (which update
    // and reload it) and Refresh (which resets it), so it never goes stale by itself.
    staleTime: Infinity,
  });
  return { tags: query.data ?? NO_TAGS, isLoading: query.isLoading, error: query.error };
}

/** The user's tags by id, for showing an image's tag ids as names and colours. */
export function useTagsById(): ReadonlyMap<string, Tag> {
  const { tags } = useTags();
  return useMemo(() => new Map(tags.map((tag) => [tag.id, tag])), [tags]);
}
