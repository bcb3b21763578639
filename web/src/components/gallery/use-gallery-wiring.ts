import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { imageKey } from './gallery-image';
import type { GalleryImage } from './gallery-image';
import { withoutDeleted } from './gallery-screen';
import { facesOfSeries } from './series';
import { useSelection } from './selection';
import { useImageDeletion } from './use-image-deletion';
import type { ImageDeletion } from './use-image-deletion';

export interface GalleryWiringOptions<T extends GalleryImage> {
  /** Every image of the list: the one whose details are open is found here by name. */
  images: readonly T[];
  /** The images the screen's filters keep, deleted ones still among them. */
  shown: readonly T[];
  /** Sends one image's delete command (the screen's own, LD or HD). */
  deleteOne: (filename: string) => Promise<void>;
  /** Drops a deleted image from the screen's cached list. */
  onDeleted: (filename: string) => void;
}

export interface GalleryWiring<T extends GalleryImage> {
  selected: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
  deletion: ImageDeletion;
  /** The shown images without the deleted ones: what Select All selects. */
  visible: readonly T[];
  /** The selected images still visible: what the selection bar counts, zips and deletes. */
  selectedVisible: readonly T[];
  byName: ReadonlyMap<string, T>;
  clearSelection: () => void;
  onToggleSelect: (filename: string) => void;
  onSelectAll: (select: boolean) => void;
  /** Adds every visible face of a series to the selection (issue 25, "Select series"). */
  onSelectSeries: (seriesId: string) => void;
  /** Deletes one image (undoable) and drops it from the selection. */
  onDelete: (filename: string) => void;
  /** Deletes every selected visible image (undoable) and drops them from the selection. */
  deleteSelection: () => void;
  /** Opens an image's details modal; `opened` is that image while it is in the list. */
  onOpen: (filename: string) => void;
  opened: T | undefined;
  closeDetails: () => void;
}

/**
 * What the Dashboard and Output galleries share: the selection, undoable deletion, Select All and
 * the details modal's open image. Each screen adds its own list, filters, tiles and toolbar.
 */
export function useGalleryWiring<T extends GalleryImage>({
  images,
  shown,
  deleteOne,
  onDeleted,
}: GalleryWiringOptions<T>): GalleryWiring<T> {
  const selection = useSelection();
  const { selected, remove: unselect, toggle: onToggleSelect } = selection;
  const { replace: selectOnly, clear: clearSelection, add: selectToo } = selection;
  const deletion = useImageDeletion(deleteOne, (filename) => {
    onDeleted(filename);
    unselect([filename]);
  });
  const { deleteImages, hidden, deleting } = deletion;

  const visible = useMemo(() => withoutDeleted(shown, hidden), [shown, hidden]);
  const selectedVisible = useMemo(
    () => visible.filter((image) => selected.has(image.filename)),
    [visible, selected],
  );
  const byName = useMemo(() => new Map(images.map((image) => [image.filename, image])), [images]);

  const deleteAndUnselect = useCallback(
    (filenames: readonly string[]) => {
      deleteImages(filenames);
      unselect(filenames);
    },
    [deleteImages, unselect],
  );
  const onDelete = useCallback(
    (filename: string) => deleteAndUnselect([filename]),
    [deleteAndUnselect],
  );
  const deleteSelection = useCallback(
    () => deleteAndUnselect(selectedVisible.map(imageKey)),
    [deleteAndUnselect, selectedVisible],
  );
  const onSelectAll = useCallback(
    (select: boolean) => (select ? selectOnly(visible.map(imageKey)) : clearSelection()),
    [visible, selectOnly, clearSelection],
  );

  // Stable, read from a ref: memoised tiles keep their props while the list changes.
  const visibleNow = useRef(visible);
  useEffect(() => {
    visibleNow.current = visible;
  }, [visible]);
  const onSelectSeries = useCallback(
    (seriesId: string) => selectToo(facesOfSeries(visibleNow.current, seriesId).map(imageKey)),
    [selectToo],
  );

  const [openName, setOpenName] = useState<string | null>(null);
  const onOpen = useCallback((filename: string) => setOpenName(filename), []);
  const closeDetails = useCallback(() => setOpenName(null), []);
  const opened = openName === null ? undefined : byName.get(openName);

  return {
    selected,
    deleting,
    deletion,
    visible,
    selectedVisible,
    byName,
    clearSelection,
    onToggleSelect,
    onSelectAll,
    onSelectSeries,
    onDelete,
    deleteSelection,
    onOpen,
    opened,
    closeDetails,
  };
}
