import type { HdImage } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { loadAllHdImages } from '../../lib/api/images';
import { useMessaging } from '../../lib/messaging';

/** The query key prefix of the user's HD list; invalidate it when an HD job finishes. */
export const HD_IMAGES_QUERY_KEY = ['hd-images'] as const;

export function hdImagesQueryKey(user: string | undefined) {
  return [...HD_IMAGES_QUERY_KEY, user] as const;
}

const NO_IMAGES: readonly HdImage[] = [];

/** The signed-in user's HD images (SPEC §2 Output), all pages of 100. */
export function useHdImages() {
  const client = useMessaging();
  const query = useQuery({
    queryKey: hdImagesQueryKey(client?.user),
    queryFn: ({ signal }) => (client ? loadAllHdImages(client, { signal }) : []),
    enabled: client !== null,
    structuralSharing: false,
    refetchOnWindowFocus: false,
    retry: false,
  });
  return {
    images: query.data ?? NO_IMAGES,
    isPending: query.isPending,
    isFetching: query.isFetching,
    isError: query.isError,
  };
}

export function removeCachedHdImage(queryClient: QueryClient, user: string, filename: string) {
  queryClient.setQueryData<HdImage[]>(hdImagesQueryKey(user), (old) =>
    old?.filter((image) => image.filename !== filename),
  );
}
