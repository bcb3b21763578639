import type { LdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { deleteLdImage, refreshLdImages } from '../../lib/api/images';
import { useMessaging } from '../../lib/messaging';
import { imageAspect } from '../gallery/aspect';
import {
  GalleryCount,
  GalleryEmpty,
  GalleryError,
  GalleryLoading,
} from '../gallery/gallery-states';
import { ldImagesQueryKey, removeCachedLdImages, useLdImages } from '../gallery/ld-images';
import { MasonryGrid } from '../gallery/masonry-grid';
import type { TileBox } from '../gallery/masonry-grid';
import { RefreshButton } from '../gallery/refresh-button';
import { useSelection } from '../gallery/selection';
import { useImageDeletion } from '../gallery/use-image-deletion';
import { useViewMode } from '../gallery/view-mode';
import { ViewToggle } from '../gallery/view-toggle';
import { ImageDetailsModal } from '../hd/image-details-modal';
import { TagAssignDialog } from '../tags/tag-assign-dialog';
import { filterImagesByTags, useTagFilter } from '../tags/tag-filter';
import { TagsPanel } from '../tags/tags-panel';
import { tagsQueryKey, useTags } from '../tags/use-tags';
import { LdTable } from './ld-table';
import { LdTile } from './ld-tile';
import '../gallery/gallery.css';

const getKey = (image: LdImage) => image.filename;
const getAspect = (image: LdImage) => imageAspect(image.metadata);

/**
 * Route `/dashboard`, the LD gallery of SPEC §2 (checklist D1–D13, T1–T13): the tools column
 * (Gallery/List, Refresh, Tags), and the images as a masonry grid or a table, filtered by tag.
 */
export function DashboardScreen() {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const { images, isPending, isFetching, isError } = useLdImages();
  const { tags } = useTags();
  const filter = useTagFilter(tags);
  const [mode, setMode] = useViewMode('tessera.dashboard.view');
  const selection = useSelection();
  const [refreshing, setRefreshing] = useState(false);
  const [detailsFor, setDetailsFor] = useState<string | null>(null);
  const [tagsFor, setTagsFor] = useState<string | null>(null);

  // Filtering happens here, over the whole loaded list: instant, and no request per click.
  const visible = useMemo(
    () => filterImagesByTags(images, filter.enabled),
    [images, filter.enabled],
  );
  const byName = useMemo(() => new Map(images.map((image) => [image.filename, image])), [images]);
  const selectedVisible = useMemo(
    () => visible.filter((image) => selection.selected.has(image.filename)),
    [visible, selection.selected],
  );

  const { remove: unselect } = selection;
  const { deleting, deleteImages } = useImageDeletion(
    async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteLdImage(client, filename);
    },
    (filename) => {
      if (client) removeCachedLdImages(queryClient, client.user, new Set([filename]));
      unselect([filename]);
    },
  );

  const onDelete = useCallback((filename: string) => void deleteImages([filename]), [deleteImages]);
  const onOpen = useCallback((filename: string) => setDetailsFor(filename), []);
  const onAssignTags = useCallback((filename: string) => setTagsFor(filename), []);
  const { toggle: onToggleSelect, replace: selectOnly, clear: clearSelection } = selection;
  const onSelectAll = useCallback(
    (select: boolean) => (select ? selectOnly(visible.map(getKey)) : clearSelection()),
    [visible, selectOnly, clearSelection],
  );

  /** SPEC §4 Refresh (D3): refresh-low-definition, then clear and reload tags and images. */
  async function refresh() {
    if (!client || refreshing) return;
    setRefreshing(true);
    try {
      await refreshLdImages(client);
    } catch (error) {
      // The lists are reloaded anyway: they show what the server has, indexed or not.
      console.error('Refreshing the images failed:', error);
    }
    try {
      await Promise.all([
        queryClient.resetQueries({ queryKey: tagsQueryKey(client.user) }),
        queryClient.resetQueries({ queryKey: ldImagesQueryKey(client.user) }),
      ]);
    } finally {
      setRefreshing(false);
    }
  }

  const { selected } = selection;
  const renderTile = useCallback(
    (image: LdImage, box: TileBox) => (
      <LdTile
        key={image.filename}
        image={image}
        {...box}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onAssignTags={onAssignTags}
        onDelete={onDelete}
      />
    ),
    [selected, deleting, onOpen, onToggleSelect, onAssignTags, onDelete],
  );

  const detailsImage = detailsFor === null ? undefined : byName.get(detailsFor);
  const tagsImage = tagsFor === null ? undefined : byName.get(tagsFor);
  const loadingFirst = isPending || (isFetching && images.length === 0);

  let body;
  if (isError) body = <GalleryError />;
  else if (loadingFirst) body = <GalleryLoading />;
  else if (visible.length === 0) body = <GalleryEmpty />;
  else if (mode === 'gallery')
    body = (
      <MasonryGrid
        items={visible}
        getKey={getKey}
        getAspect={getAspect}
        renderItem={renderTile}
        label="Images"
      />
    );
  else
    body = (
      <LdTable
        images={visible}
        selected={selected}
        deleting={deleting}
        onSelectAll={onSelectAll}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onAssignTags={onAssignTags}
        onDelete={onDelete}
      />
    );

  return (
    <div className="gallery-screen">
      <aside className="gallery-tools" aria-label="Dashboard tools">
        <ViewToggle mode={mode} onChange={setMode} />
        <RefreshButton busy={refreshing} onRefresh={() => void refresh()} />
        <TagsPanel filter={filter} />
      </aside>
      <section className="gallery-main" aria-labelledby="dashboard-title">
        <header className="gallery-toolbar">
          <h1 id="dashboard-title" className="gallery-title">
            Dashboard
          </h1>
          {!isError && !loadingFirst && (
            <GalleryCount shown={visible.length} total={images.length} loadingMore={isFetching} />
          )}
          {selectedVisible.length > 0 && (
            <div className="gallery-selection">
              <span className="gallery-selection-count">{selectedVisible.length} selected</span>
              <button type="button" className="button button-small" onClick={clearSelection}>
                Clear selection
              </button>
              <button
                type="button"
                className="button button-small button-danger"
                onClick={() => void deleteImages(selectedVisible.map(getKey))}
              >
                Delete Selection
              </button>
            </div>
          )}
        </header>
        {body}
      </section>
      {detailsImage && (
        <ImageDetailsModal image={detailsImage} onClose={() => setDetailsFor(null)} />
      )}
      {tagsImage && <TagAssignDialog image={tagsImage} onClose={() => setTagsFor(null)} />}
    </div>
  );
}
