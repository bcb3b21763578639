import { TEXT_BUNDLES, type HdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { imageKey } from '../../components/gallery/gallery-image';
import { GalleryScreen } from '../../components/gallery/gallery-screen';
import type { TileBox } from '../../components/gallery/masonry-grid';
import { useGalleryWiring } from '../../components/gallery/use-gallery-wiring';
import { deleteHdImage } from '../../lib/api/images';
import { useTexts } from '../../lib/i18n';
import { useMessaging } from '../../lib/messaging';
import { useZipDownload, ZipSelectionTools } from '../zip';
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
  const T = useTexts(TEXT_BUNDLES.output);
  // The screen is called as the sidebar calls it (SPEC §2's route name).
  const { nav } = useTexts(TEXT_BUNDLES.shell);
  const client = useMessaging();
  const queryClient = useQueryClient();
  const list = useHdImages();
  const { images } = list;
  const zip = useZipDownload('hd');
  const gallery = useGalleryWiring({
    images,
    shown: images,
    deleteOne: async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteHdImage(client, filename);
    },
    onDeleted: (filename) => {
      if (client) removeCachedHdImage(queryClient, client.user, filename);
    },
  });
  const { selected, deleting, selectedVisible, clearSelection } = gallery;
  const { onOpen, onToggleSelect, onSelectAll, onDelete } = gallery;

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
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onDelete={onDelete}
      />
    ),
    [selected, deleting, onOpen, onToggleSelect, onDelete],
  );

  return (
    <GalleryScreen
      title={nav.output}
      viewStorageKey="tessera.output.view"
      list={list}
      visible={images}
      deletion={gallery.deletion}
      onRefresh={refresh}
      toolbar={
        <ZipSelectionTools
          files={selectedVisible.map(imageKey)}
          zip={zip}
          onClear={clearSelection}
        />
      }
      gridLabel={T.images}
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
      {gallery.opened && (
        <HdImageDetailsModal image={gallery.opened} onClose={gallery.closeDetails} />
      )}
    </GalleryScreen>
  );
}
