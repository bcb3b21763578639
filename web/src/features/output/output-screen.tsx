import type { HdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { deleteHdImage } from '../../lib/api/images';
import { useMessaging } from '../../lib/messaging';
import { imageAspect } from '../gallery/aspect';
import {
  GalleryCount,
  GalleryEmpty,
  GalleryError,
  GalleryLoading,
} from '../gallery/gallery-states';
import { MasonryGrid } from '../gallery/masonry-grid';
import type { TileBox } from '../gallery/masonry-grid';
import { RefreshButton } from '../gallery/refresh-button';
import { useImageDeletion } from '../gallery/use-image-deletion';
import { useViewMode } from '../gallery/view-mode';
import { ViewToggle } from '../gallery/view-toggle';
import { HdImageDetailsModal } from './hd-image-details-modal';
import { hdImagesQueryKey, removeCachedHdImage, useHdImages } from './hd-images';
import { HdTable } from './hd-table';
import { HdTile } from './hd-tile';
import '../gallery/gallery.css';
import './output.css';

const getKey = (image: HdImage) => image.filename;
const getAspect = (image: HdImage) => imageAspect(image.metadata);

/**
 * Route `/output`, the HD gallery of SPEC §2 (checklist O1–O3): the same Gallery/List toggle and
 * Refresh as the Dashboard (here Refresh reloads the HD list), a grid or a table, and the HD
 * Image Details modal.
 */
export function OutputScreen() {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const { images, isPending, isFetching, isError } = useHdImages();
  const [mode, setMode] = useViewMode('tessera.output.view');
  const [refreshing, setRefreshing] = useState(false);
  const [detailsFor, setDetailsFor] = useState<string | null>(null);
  const byName = useMemo(() => new Map(images.map((image) => [image.filename, image])), [images]);

  const { deleting, deleteImages } = useImageDeletion(
    async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteHdImage(client, filename);
    },
    (filename) => {
      if (client) removeCachedHdImage(queryClient, client.user, filename);
    },
  );
  const onDelete = useCallback((filename: string) => void deleteImages([filename]), [deleteImages]);
  const onOpen = useCallback((filename: string) => setDetailsFor(filename), []);

  async function refresh() {
    if (!client || refreshing) return;
    setRefreshing(true);
    try {
      // HD files are indexed by the server as jobs finish: reloading the list is the refresh.
      await queryClient.resetQueries({ queryKey: hdImagesQueryKey(client.user) });
    } finally {
      setRefreshing(false);
    }
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
  const loadingFirst = isPending || (isFetching && images.length === 0);

  let body;
  if (isError) body = <GalleryError />;
  else if (loadingFirst) body = <GalleryLoading />;
  else if (images.length === 0) body = <GalleryEmpty />;
  else if (mode === 'gallery')
    body = (
      <MasonryGrid
        items={images}
        getKey={getKey}
        getAspect={getAspect}
        renderItem={renderTile}
        label="HD images"
      />
    );
  else body = <HdTable images={images} deleting={deleting} onOpen={onOpen} onDelete={onDelete} />;

  return (
    <div className="gallery-screen">
      <aside className="gallery-tools" aria-label="Output tools">
        <ViewToggle mode={mode} onChange={setMode} />
        <RefreshButton busy={refreshing} onRefresh={() => void refresh()} />
      </aside>
      <section className="gallery-main" aria-labelledby="output-title">
        <header className="gallery-toolbar">
          <h1 id="output-title" className="gallery-title">
            Output
          </h1>
          {!isError && !loadingFirst && (
            <GalleryCount shown={images.length} total={images.length} loadingMore={isFetching} />
          )}
        </header>
        {body}
      </section>
      {details && <HdImageDetailsModal image={details} onClose={() => setDetailsFor(null)} />}
    </div>
  );
}
