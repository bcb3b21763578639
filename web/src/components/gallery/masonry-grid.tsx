import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { useColumnCount } from './columns';
import { useElementWidth } from './use-element-width';
import { useVirtualItemKey } from './use-virtual-item-key';

/** Where one tile sits inside the grid, in pixels. */
export interface TileBox {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface MasonryGridProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** Height over width of an item; with the column width it gives the tile's height. */
  getAspect: (item: T) => number;
  /** Renders one tile (a role="listitem" element placed at `box`); memoise it by key. */
  renderItem: (item: T, box: TileBox) => ReactNode;
  label: string;
}

const GAP = 12;
const PADDING = 16;
/** Even a plank's picture stays tall enough to aim at. */
const MIN_PICTURE_HEIGHT = 56;
/**
 * The bar of actions below each picture. The actions have a place of their own: laid over the
 * picture, a click meant to open a short tile (a plank) would land on Delete.
 */
export const TILE_ACTIONS_HEIGHT = 44;

/**
 * The masonry grid of SPEC §2 (checklist D5): 5/3/2/1 columns by window width, each tile in the
 * shortest column. Virtualised: only the tiles near the viewport are in the DOM, so 10,000
 * images cost what 50 do (checklist: scale). Tile heights come from the images' aspect ratios,
 * known before any image loads, so nothing moves once thumbnails arrive.
 */
export function MasonryGrid<T>({
  items,
  getKey,
  getAspect,
  renderItem,
  label,
}: MasonryGridProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = useColumnCount();
  const width = Math.max(useElementWidth(scrollRef) - 2 * PADDING, 0);
  const columnWidth = width > 0 ? (width - GAP * (columns - 1)) / columns : 0;

  const heights = useMemo(
    () =>
      items.map(
        (item) =>
          Math.max(Math.round(columnWidth * getAspect(item)), MIN_PICTURE_HEIGHT) +
          TILE_ACTIONS_HEIGHT,
      ),
    [items, columnWidth, getAspect],
  );
  const getItemKey = useVirtualItemKey(items, getKey);

  // The app is not built with the React Compiler, so nothing memoises what this returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => heights[index] ?? columnWidth,
    getItemKey,
    lanes: columns,
    gap: GAP,
    paddingStart: PADDING,
    paddingEnd: PADDING,
    overscan: 2,
    enabled: columnWidth > 0,
  });

  // Sizes are estimates the virtualiser caches: a new width or list means laying out afresh.
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [virtualizer, heights, columns]);

  return (
    <div ref={scrollRef} className="gallery-scroll">
      <div
        role="list"
        aria-label={label}
        className="masonry"
        data-columns={columns}
        style={
          {
            height: columnWidth > 0 ? virtualizer.getTotalSize() : 0,
            // The stylesheet sizes the actions bar from the same figure the layout counts.
            '--tile-actions-height': `${TILE_ACTIONS_HEIGHT}px`,
          } as CSSProperties
        }
      >
        {columnWidth > 0 &&
          virtualizer.getVirtualItems().map((virtual) => {
            const item = items[virtual.index];
            if (item === undefined) return null;
            return renderItem(item, {
              top: virtual.start,
              left: PADDING + virtual.lane * (columnWidth + GAP),
              width: columnWidth,
              height: virtual.size,
            });
          })}
      </div>
    </div>
  );
}
