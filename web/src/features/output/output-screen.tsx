import type { HdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { imageKey } from '../../components/gallery/gallery-image';
import { GalleryScreen, withoutDeleted } from '../../components/gallery/gallery-screen';
import type { TileBox } from '../../components/gallery/masonry-grid';
import { useSelection } from '../../components/gallery/selection';
import { SelectionBar } from '../../components/gallery/selection-bar';
import { useImageDeletion } from '../../components/gallery/use-image-deletion';
import { deleteHdImage } from '../../lib/api/images';
import { useMessaging } from '../../lib/messaging';
import { DownloadZipButton, useZipDownload, ZipDownloadStatus } from '../zip';
import { HdImageDetailsModal } from './hd-image-details-modal';
import { hdImagesQueryKey, removeCachedHdImage, useHdImages } from './hd-images';
import { HdTable } from './hd-table';
import { HdTile } from './hd-tile';
import './output.css';

/**
 * Route `/output`, the HD gallery of SPEC §2 (checklist O1–O3): the same Gallery/List toggle and
 * Refresh as the Dashboard (here Refresh reloads the HD list), a grid or a table, and the HD
 * Image Details modal; a selection downloads as one ZIP (issue 13, feature 10).
 */
export function OutputScreen() {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const list = useHdImages();
  const { images } = list;
  const [detailsFor, setDetailsFor] = useState<string | null>(null);
  const byName = useMemo(() => new Map(images.map((image) => [image.filename, image])), [images]);
  const selection = useSelection();
  const zip = useZipDownload('hd');
  const { remove: unselect, toggle: onToggleSelect, replace: selectOnly } = selection;
  const { clear: clearSelection } = selection;

  const deletion = useImageDeletion(
    async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteHdImage(client, filename);
    },
    (filename) => {
      if (client) removeCachedHdImage(queryClient, client.user, filename);
      unselect([filename]);
    },
  );
  const { deleting, deleteImages } = deletion;
  const onDelete = useCallback(
    (filename: string) => {
      deleteImages([filename]);
      unselect([filename]);
    },
    [deleteImages, unselect],
  );
  const visible = useMemo(() => withoutDeleted(images, deletion.hidden), [images, deletion.hidden]);
  const selectedImages = useMemo(
    () => visible.filter((image) => selection.selected.has(image.filename)),
    [visible, selection.selected],
  );
  const onSelectAll = useCallback(
    (select: boolean) => (select ? selectOnly(visible.map(imageKey)) : clearSelection()),
    [visible, selectOnly, clearSelection],
  );
  const onOpen = useCallback((filename: string) => setDetailsFor(filename), []);

  async function refresh() {
    // HD files are indexed by the server as jobs finish: reloading the list is the refresh.
    if (client) await queryClient.resetQueries({ queryKey: hdImagesQueryKey(client.user) });
  }

  const { selected } = selection;
  const renderTile = useCallback(
    (image: HdImage, box: TileBox) => (
      <HdTile
        key={image.filename}
        image={image}
        {...box}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onDelete={onDelete}
      />
    ),
    [selected, deleting, onOpen, onToggleSelect, onDelete],
  );

  const details = detailsFor === null ? undefined : byName.get(detailsFor);

  return (
    <GalleryScreen
      title="Output"
      viewStorageKey="tessera.output.view"
      list={list}
      visible={images}
      deletion={deletion}
      onRefresh={refresh}
      toolbar={
        <>
          {selectedImages.length > 0 && (
            <SelectionBar count={selectedImages.length} onClear={clearSelection}>
              <DownloadZipButton files={selectedImages.map(imageKey)} zip={zip} />
            </SelectionBar>
          )}
          <ZipDownloadStatus zip={zip} />
        </>
      }
      gridLabel="HD images"
      renderTile={renderTile}
      renderTable={(placed, vacated) => (
        <HdTable
          images={placed}
          vacated={vacated}
          selected={selected}
          deleting={deleting}
          onSelectAll={onSelectAll}
          onOpen={onOpen}
          onToggleSelect={onToggleSelect}
          onDelete={onDelete}
        />
      )}
    >
      {details && <HdImageDetailsModal image={details} onClose={() => setDetailsFor(null)} />}
    </GalleryScreen>
  );
}
