import { TEXT_BUNDLES } from '@tessera/contract';
import { Fragment, useCallback, useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useTexts } from '../../lib/i18n';
import type { GalleryImage } from './gallery-image';
import { imageKey, imageTileAspect } from './gallery-image';
import { GalleryCount, GalleryEmpty, GalleryError, GalleryLoading } from './gallery-states';
import { MasonryGrid } from './masonry-grid';
import type { TileBox } from './masonry-grid';
import { RefreshButton } from './refresh-button';
import { UndoDeleteBar } from './undo-delete-bar';
import type { ImageDeletion } from './use-image-deletion';
import { useKeptPlaces } from './use-kept-places';
import { useViewMode } from './view-mode';
import { ViewToggle } from './view-toggle';
import './gallery.css';

export interface GalleryScreenProps<T extends GalleryImage> {
  /** The heading, which also names the tools column ("Herramientas de Dashboard"). */
  title: string;
  /** Where the Gallery/List choice is remembered for the browser tab. */
  viewStorageKey: string;
  /** The loaded list and how its loading goes. */
  list: { images: readonly T[]; isPending: boolean; isFetching: boolean; isError: boolean };
  /** The images to show: all of `list.images`, or those a filter keeps, deleted ones too. */
  visible: readonly T[];
  /** What Refresh does; the button reads busy until it settles. */
  onRefresh: () => Promise<void>;
  /** Tools below Gallery/List and Refresh. */
  tools?: ReactNode;
  /** Toolbar content after the image count. */
  toolbar?: ReactNode;
  /** The masonry grid's accessible name. */
  gridLabel: string;
  /** One tile of the Gallery view (see MasonryGrid). */
  renderTile: (image: T, box: TileBox) => ReactNode;
  /**
   * The List view over `images` (`visible` without the deleted), where the rows in `vacated` are
   * deleted ones whose place is kept while the pointer is over the table.
   */
  renderTable: (images: readonly T[], vacated: ReadonlySet<string>) => ReactNode;
  /** What the images in view answer (search, order, filters): a new one shows them from the top. */
  resultsKey?: string;
  /** The screen's deletions: the images they hide, and the one that can be undone. */
  deletion: Pick<ImageDeletion, 'hidden' | 'pending'>;
  /** Dialogs opened from the gallery. */
  children?: ReactNode;
}

/** The images a screen shows while some are deleted (see useImageDeletion). */
export function withoutDeleted<T extends GalleryImage>(
  images: readonly T[],
  hidden: ReadonlySet<string>,
): readonly T[] {
  return hidden.size === 0 ? images : images.filter((image) => !hidden.has(imageKey(image)));
}

/** Where a deleted image was, kept empty while the pointer is over the grid (useKeptPlaces). */
function VacatedTile({ top, left, width, height }: TileBox) {
  return (
    <div
      className="tile-vacated"
      aria-hidden="true"
      style={{ transform: `translate(${left}px, ${top}px)`, width, height }}
    />
  );
}

/**
 * The frame of a gallery screen of SPEC §2: the tools column (Gallery/List, Refresh and more),
 * the heading with the image count, and the images as a masonry grid or a table, or what stands
 * for them while they load, when loading failed or when there are none.
 */
export function GalleryScreen<T extends GalleryImage>({
  title,
  viewStorageKey,
  list: { images: listed, isPending, isFetching, isError },
  visible: filtered,
  onRefresh,
  tools,
  toolbar,
  gridLabel,
  renderTile,
  renderTable,
  resultsKey,
  deletion,
  children,
}: GalleryScreenProps<T>) {
  // Deleted images leave the screen at once, while their deletion can still be undone; under
  // the pointer, the grid keeps their places empty until it leaves.
  const { hidden } = deletion;
  const images = useMemo(() => withoutDeleted(listed, hidden), [listed, hidden]);
  const visible = useMemo(() => withoutDeleted(filtered, hidden), [filtered, hidden]);
  const places = useKeptPlaces(hidden);
  const vacated = useMemo(
    () => new Set([...places.kept].filter((key) => hidden.has(key))),
    [places.kept, hidden],
  );
  const placed = useMemo(
    () =>
      vacated.size === 0
        ? visible
        : filtered.filter((image) => !hidden.has(imageKey(image)) || vacated.has(imageKey(image))),
    [filtered, visible, hidden, vacated],
  );
  const renderItem = useCallback(
    (image: T, box: TileBox) => {
      const key = imageKey(image);
      return vacated.has(key) ? <VacatedTile key={key} {...box} /> : renderTile(image, box);
    },
    [vacated, renderTile],
  );
  const texts = useTexts(TEXT_BUNDLES.gallery);
  const titleId = useId();
  const [mode, setMode] = useViewMode(viewStorageKey);
  const [refreshing, setRefreshing] = useState(false);

  async function refresh() {
    if (refreshing) return;
    setRefreshing(true);
    try {
      await onRefresh();
    } finally {
      setRefreshing(false);
    }
  }

  const loadingFirst = isPending || (isFetching && images.length === 0);
  let body;
  if (isError) body = <GalleryError />;
  else if (loadingFirst) body = <GalleryLoading />;
  else if (visible.length === 0) body = <GalleryEmpty />;
  else if (mode === 'gallery')
    body = (
      <MasonryGrid
        items={placed}
        getKey={imageKey}
        getAspect={imageTileAspect}
        renderItem={renderItem}
        label={gridLabel}
      />
    );
  else body = renderTable(placed, vacated);

  return (
    <div className="gallery-screen">
      <aside className="gallery-tools" aria-label={texts.tools(title)}>
        <ViewToggle mode={mode} onChange={setMode} />
        <RefreshButton busy={refreshing} onRefresh={() => void refresh()} />
        {tools}
      </aside>
      <section className="gallery-main" aria-labelledby={titleId}>
        <header className="gallery-toolbar">
          <h1 id={titleId} className="gallery-title">
            {title}
          </h1>
          {!isError && !loadingFirst && (
            <GalleryCount shown={visible.length} total={images.length} loadingMore={isFetching} />
          )}
          {toolbar}
        </header>
        <div className="gallery-body" {...places.pointerHandlers}>
          {/* A new query starts at the top (issue 22, part 11): a fresh scroll box, not the end. */}
          <Fragment key={resultsKey}>{body}</Fragment>
        </div>
      </section>
      <UndoDeleteBar pending={deletion.pending} />
      {children}
    </div>
  );
}
