import { TEXT_BUNDLES } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { imageKey } from '../../components/gallery/gallery-image';
import { GalleryScreen } from '../../components/gallery/gallery-screen';
import type { TileBox } from '../../components/gallery/masonry-grid';
import { facesOfSeries, groupSeries, seriesFaceOf } from '../../components/gallery/series';
import { useGalleryWiring } from '../../components/gallery/use-gallery-wiring';
import { deleteLdImage, refreshLdImages } from '../../lib/api/images';
import { useTexts } from '../../lib/i18n';
import { ldImagesQueryKey, removeCachedLdImages, useLdImages } from '../../lib/images/ld-images';
import { useMessaging } from '../../lib/messaging';
import { LdImageDetailsModal } from '../image-details';
import {
  TagAssignDialog,
  TagsPanel,
  filterImagesByTags,
  tagsQueryKey,
  useTagFilter,
  useTags,
} from '../tags';
import { useZipDownload, ZipSelectionTools } from '../zip';
import { useLdSearch } from './ld-search';
import { LdSearchBar } from './ld-search-bar';
import { LdTable } from './ld-table';
import { LdTile, type LdImageHandlers } from './ld-tile';
import { useStarImage } from './use-star';

/**
 * Route `/dashboard`, the LD gallery of SPEC §2 (checklist D1–D13, T1–T13): the tools column
 * (Gallery/List, Refresh, Tags), and the images as a masonry grid or a table, filtered by tag;
 * found, ordered and starred by the search above them (issue 13, features 8 and 9).
 */
export function DashboardScreen() {
  const texts = useTexts(TEXT_BUNDLES.dashboard);
  const client = useMessaging();
  const queryClient = useQueryClient();
  const find = useLdSearch();
  const list = useLdImages(find.search);
  const { images } = list;
  const { tags } = useTags();
  const filter = useTagFilter(tags);
  const zip = useZipDownload('ld');
  const [tagsFor, setTagsFor] = useState<string | null>(null);

  // The server found the list. An image unstarred in the Starred view leaves it at once, as the
  // server's next answer would have it; tags filter here, instant, with no request per click.
  // The faces of a series stay side by side in any order (issue 25).
  const { starredOnly } = find;
  const found = useMemo(
    () => groupSeries(starredOnly ? images.filter((image) => image.starred === true) : images),
    [images, starredOnly],
  );
  const shown = useMemo(() => filterImagesByTags(found, filter.enabled), [found, filter.enabled]);
  const resultsKey = useMemo(
    () => JSON.stringify([find.search, [...filter.enabled].sort()]),
    [find.search, filter.enabled],
  );
  const gallery = useGalleryWiring({
    images,
    shown,
    deleteOne: async (filename) => {
      if (!client) throw new Error('Not signed in');
      await deleteLdImage(client, filename);
    },
    onDeleted: (filename) => {
      if (client) removeCachedLdImages(queryClient, client.user, new Set([filename]));
    },
  });
  const { selected, deleting, selectedVisible, byName, clearSelection } = gallery;
  const { onOpen, onToggleSelect, onSelectAll, onDelete, onSelectSeries } = gallery;
  const onAssignTags = useCallback((filename: string) => setTagsFor(filename), []);
  const onToggleStar = useStarImage();

  /** SPEC §4 Refresh (D3): refresh-low-definition, then clear and reload tags and images. */
  async function refresh() {
    if (!client) return;
    try {
      await refreshLdImages(client);
    } catch (error) {
      // The lists are reloaded anyway: they show what the server has, indexed or not.
      console.error('Refreshing the images failed:', error);
    }
    await Promise.all([
      queryClient.resetQueries({ queryKey: tagsQueryKey(client.user) }),
      queryClient.resetQueries({ queryKey: ldImagesQueryKey(client.user) }),
    ]);
  }

  const handlers: LdImageHandlers = useMemo(
    () => ({ onOpen, onToggleSelect, onAssignTags, onDelete, onToggleStar, onSelectSeries }),
    [onOpen, onToggleSelect, onAssignTags, onDelete, onToggleStar, onSelectSeries],
  );
  const renderTile = useCallback(
    (image: LdImage, box: TileBox) => (
      <LdTile
        key={image.filename}
        image={image}
        {...box}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        {...handlers}
      />
    ),
    [selected, deleting, handlers],
  );

  const tagsImage = tagsFor === null ? undefined : byName.get(tagsFor);
  const openedSeries = gallery.opened && seriesFaceOf(gallery.opened);

  return (
    <GalleryScreen
      title={texts.title}
      viewStorageKey="tessera.dashboard.view"
      list={{ ...list, images: found }}
      visible={shown}
      resultsKey={resultsKey}
      deletion={gallery.deletion}
      onRefresh={refresh}
      tools={<TagsPanel filter={filter} />}
      toolbar={
        <>
          <ZipSelectionTools
            files={selectedVisible.map(imageKey)}
            zip={zip}
            onClear={clearSelection}
          >
            <button
              type="button"
              className="button button-small button-danger"
              onClick={gallery.deleteSelection}
            >
              {texts.deleteSelection}
            </button>
          </ZipSelectionTools>
          <LdSearchBar {...find} />
        </>
      }
      gridLabel={texts.images}
      renderTile={renderTile}
      renderTable={(placed, vacated) => (
        <LdTable
          images={placed}
          vacated={vacated}
          selected={selected}
          deleting={deleting}
          onSelectAll={onSelectAll}
          handlers={handlers}
        />
      )}
    >
      {gallery.opened && (
        <LdImageDetailsModal
          image={gallery.opened}
          onClose={gallery.closeDetails}
          onToggleStar={onToggleStar}
          seriesFaces={
            openedSeries &&
            // Not the faces just deleted (their undo still runs): HD of them would be lost work.
            facesOfSeries(images, openedSeries.seriesId).filter(
              (face) => !gallery.deletion.hidden.has(face.filename),
            )
          }
          onSelectSeries={onSelectSeries}
        />
      )}
      {tagsImage && <TagAssignDialog image={tagsImage} onClose={() => setTagsFor(null)} />}
    </GalleryScreen>
  );
}
