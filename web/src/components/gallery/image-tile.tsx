import type { ReactNode } from 'react';
import type { GalleryImage } from './gallery-image';
import { itemClasses } from './gallery-image';
import { SelectImageCheckbox } from './image-actions';
import type { TileBox } from './masonry-grid';
import { Thumbnail } from './thumbnail';

export interface ImageTileProps extends TileBox {
  image: Pick<GalleryImage, 'filename' | 'thumbnail'>;
  selected?: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  /** Given, the tile has a Select checkbox on the left of its actions; otherwise they sit right. */
  onToggleSelect?: (filename: string) => void;
  /** The tile's action buttons (see ./image-actions). */
  actions: ReactNode;
  /** What shows below the actions, such as the image's tags. */
  children?: ReactNode;
}

/**
 * One image of a masonry grid, placed at its box; a click opens its details. The checkbox and the
 * actions show on hover, on keyboard focus or when selected; they stay in the DOM (only faded out)
 * so keyboard and screen-reader users reach them too.
 */
export function ImageTile({
  image: { filename, thumbnail },
  top,
  left,
  width,
  height,
  selected = false,
  busy,
  onOpen,
  onToggleSelect,
  actions,
  children,
}: ImageTileProps) {
  return (
    <div
      role="listitem"
      className={itemClasses('tile', selected, busy)}
      style={{ transform: `translate(${left}px, ${top}px)`, width, height }}
      aria-busy={busy}
    >
      <button type="button" className="tile-open" onClick={() => onOpen(filename)}>
        <Thumbnail src={thumbnail} alt={filename} />
      </button>
      <div className={onToggleSelect ? 'tile-actions' : 'tile-actions tile-actions-right'}>
        {onToggleSelect && (
          <SelectImageCheckbox
            className="tile-check"
            filename={filename}
            selected={selected}
            onToggleSelect={onToggleSelect}
          />
        )}
        <span className="tile-actions-end">{actions}</span>
      </div>
      {children}
    </div>
  );
}
