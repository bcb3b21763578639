import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { starLdImage } from '../../lib/api/images';
import { updateCachedLdImage } from '../../lib/images/ld-images';
import { useMessaging } from '../../lib/messaging';

/**
 * Stars or unstars an LD image (issue 13, feature 9). The star shows at once in every cached
 * list; if the server refuses, it goes back (unless a later click changed it meanwhile) and the
 * failure is logged, as a refused deletion is. Stable, so memoised tiles keep it.
 */
export function useStarImage(): (filename: string, starred: boolean) => void {
  const client = useMessaging();
  const queryClient = useQueryClient();
  return useCallback(
    (filename, starred) => {
      if (!client) return;
      const show = (value: boolean, onlyIf?: boolean) =>
        updateCachedLdImage(queryClient, client.user, filename, (image) =>
          onlyIf !== undefined && (image.starred ?? false) !== onlyIf
            ? image
            : { ...image, starred: value },
        );
      show(starred);
      starLdImage(client, filename, starred).catch((error: unknown) => {
        console.error(`Starring ${filename} failed:`, error);
        show(!starred, starred);
      });
    },
    [client, queryClient],
  );
}
