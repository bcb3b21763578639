import type { HdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { deleteHdImage } from '../../lib/api/images';
import { useMessaging } from '../../lib/messaging';
import { GalleryScreen, withoutDeleted } from '../gallery/gallery-screen';
import type { TileBox } from '../gallery/masonry-grid';
import { useImageDeletion } from '../gallery/use-image-deletion';
import { HdImageDetailsModal } from './hd-image-details-modal';
import { hdImagesQueryKey, removeCachedHdImage, useHdImages } from './hd-images';
import { HdTable } from './hd-table';
import { HdTile } from './hd-tile';
import './output.css';

/**
 * Route `/output`, the HD gallery of SPEC §2 (checklist O1–O3): the same Gallery/List toggle and
 * Refresh as the Dashboard (here Refresh reloads the HD list), a grid or a table, and the HD
 * Image Details modal.
 */
export function OutputScreen() {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const list = useHdImages();
  const { images } = list;
  const [detailsFor, setDetailsFor] = useState<string | null>(null);
  const byName = useMemo(() => new Map(images.map((image) => [image.filename, image])), [images]);

  const deletion = useImageDeletion(
    async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteHdImage(client, filename);
    },
    (filename) => {
      if (client) removeCachedHdImage(queryClient, client.user, filename);
    },
  );
  const { deleting, deleteImages } = deletion;
  const onDelete = useCallback((filename: string) => deleteImages([filename]), [deleteImages]);
  const visible = useMemo(() => withoutDeleted(images, deletion.hidden), [images, deletion.hidden]);
  const onOpen = useCallback((filename: string) => setDetailsFor(filename), []);

  async function refresh() {
    // HD files are indexed by the server as jobs finish: reloading the list is the refresh.
    if (client) await queryClient.resetQueries({ queryKey: hdImagesQueryKey(client.user) });
  }

  const renderTile = useCallback(
    (image: HdImage, box: TileBox) => (
      <HdTile
        key={image.filename}
        image={image}
        {...box}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onDelete={onDelete}
      />
    ),
    [deleting, onOpen, onDelete],
  );

  const details = detailsFor === null ? undefined : byName.get(detailsFor);

  return (
    <GalleryScreen
      title="Output"
      viewStorageKey="tessera.output.view"
      list={list}
      visible={visible}
      deletion={deletion}
      onRefresh={refresh}
      gridLabel="HD images"
      renderTile={renderTile}
      table={<HdTable images={visible} deleting={deleting} onOpen={onOpen} onDelete={onDelete} />}
    >
      {details && <HdImageDetailsModal image={details} onClose={() => setDetailsFor(null)} />}
    </GalleryScreen>
  );
}
