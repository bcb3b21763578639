import type { LdImage, LdSearchInput } from '@tessera/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { loadAllLdImages } from '../api/images';
import { useMessaging } from '../messaging';
import type { RequestClient } from '../messaging';

/** The query key prefix of the user's LD list; invalidate it when images were added elsewhere. */
export const LD_IMAGES_QUERY_KEY = ['ld-images'] as const;

/** Every LD list of the user (all searches): the prefix to reset or update them all. */
export function ldImagesQueryKey(user: string | undefined) {
  return [...LD_IMAGES_QUERY_KEY, user] as const;
}

/** One list: the spec's plain one, or what one search found. */
function ldListQueryKey(user: string | undefined, search: LdSearchInput | undefined) {
  return search === undefined ? ldImagesQueryKey(user) : [...ldImagesQueryKey(user), search];
}

/** While later pages stream in, the gallery takes them in at most this often. */
const STREAM_FLUSH_MS = 150;

/**
 * The whole LD list. The first load paints early: the first page goes to the cache at once, the
 * following ones in batches (at most every STREAM_FLUSH_MS, so 10,000 images cost a few dozen
 * renders rather than a hundred), each appended to what the cache holds then, so a change made
 * meanwhile is kept. A later refetch swaps the list in one go, so the gallery never shrinks back.
 */
async function fetchLdImages(
  client: RequestClient,
  queryClient: QueryClient,
  search: LdSearchInput | undefined,
  signal: AbortSignal,
): Promise<LdImage[]> {
  const key = ldListQueryKey(client.user, search);
  if (queryClient.getQueryData(key) !== undefined)
    return loadAllLdImages(client, { signal, search });

  let waiting: LdImage[] = [];
  let first = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (signal.aborted || (waiting.length === 0 && !first)) return;
    const batch = waiting;
    waiting = [];
    first = false;
    queryClient.setQueryData<LdImage[]>(key, (old = []) => [...old, ...batch]);
  };
  try {
    const all = await loadAllLdImages(client, {
      signal,
      search,
      onPage: (page) => {
        waiting.push(...page);
        if (first) flush();
        else timer ??= setTimeout(flush, STREAM_FLUSH_MS);
      },
    });
    clearTimeout(timer);
    flush();
    return queryClient.getQueryData<LdImage[]>(key) ?? all;
  } finally {
    clearTimeout(timer);
  }
}

export interface LdImagesState {
  images: readonly LdImage[];
  /** Nothing to show yet: the first page has not arrived. */
  isPending: boolean;
  /** Pages are still arriving (or a refetch runs). */
  isFetching: boolean;
  isError: boolean;
}

const NO_IMAGES: readonly LdImage[] = [];

/**
 * The signed-in user's LD images, shared by every screen through the query cache; with `search`,
 * those the server finds, in its order, each saying whether it is starred.
 */
export function useLdImages(search?: LdSearchInput): LdImagesState {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ldListQueryKey(client?.user, search),
    queryFn: ({ signal }) => (client ? fetchLdImages(client, queryClient, search, signal) : []),
    enabled: client !== null,
    // A new search keeps the last results on screen until its first page arrives (the same
    // user's only: another user's images never stand in, even for a moment).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === client?.user ? keepPreviousData(previous) : undefined,
    // Image objects keep their identity, so memoised tiles skip unchanged images; a deep
    // comparison of 10,000 records per page would only cost time.
    structuralSharing: false,
    refetchOnWindowFocus: false,
    // A failed list is shown as such (SPEC §8) rather than retried behind a spinner.
    retry: false,
  });
  const images = query.data ?? NO_IMAGES;
  return {
    images,
    // An empty first page makes no list yet: it is empty only once loading has ended.
    isPending: query.isPending || (query.isFetching && images.length === 0 && !query.isError),
    isFetching: query.isFetching,
    isError: query.isError,
  };
}

/** Changes every cached LD list of the user (the plain one and each search's). */
function updateCachedLists(
  queryClient: QueryClient,
  user: string,
  change: (images: LdImage[]) => LdImage[],
): void {
  queryClient.setQueriesData<LdImage[]>(
    { queryKey: ldImagesQueryKey(user) },
    (old) => old && change(old),
  );
}

/** Replaces one image of the cached lists (by file name) with `change(image)`. */
export function updateCachedLdImage(
  queryClient: QueryClient,
  user: string,
  filename: string,
  change: (image: LdImage) => LdImage,
): void {
  updateCachedLists(queryClient, user, (images) =>
    images.map((image) => (image.filename === filename ? change(image) : image)),
  );
}

/** Drops images from the cached lists. */
export function removeCachedLdImages(
  queryClient: QueryClient,
  user: string,
  filenames: ReadonlySet<string>,
): void {
  updateCachedLists(queryClient, user, (images) =>
    images.filter((image) => !filenames.has(image.filename)),
  );
}

/** Takes a tag off every cached image that has it (the server did the same on delete-tag). */
export function removeTagFromCachedLdImages(
  queryClient: QueryClient,
  user: string,
  tagId: string,
): void {
  updateCachedLists(queryClient, user, (images) =>
    images.map((image) =>
      image.tags.includes(tagId)
        ? { ...image, tags: image.tags.filter((id) => id !== tagId) }
        : image,
    ),
  );
}
