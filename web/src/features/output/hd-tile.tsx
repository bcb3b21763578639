import type { HdImage } from '@tessera/contract';
import { memo } from 'react';
import { hdImageUrl } from '../../lib/api/images';
import { DownloadIcon, TrashIcon } from '../gallery/icons';
import { Thumbnail } from '../gallery/thumbnail';

export interface HdTileProps {
  image: HdImage;
  top: number;
  left: number;
  width: number;
  height: number;
  busy: boolean;
  onOpen: (filename: string) => void;
  onDelete: (filename: string) => void;
}

/** One HD image of the Output grid: opens its details; Download and Delete on hover or focus. */
export const HdTile = memo(function HdTile({
  image,
  top,
  left,
  width,
  height,
  busy,
  onOpen,
  onDelete,
}: HdTileProps) {
  const { filename } = image;
  return (
    <div
      role="listitem"
      className={busy ? 'tile is-busy' : 'tile'}
      style={{ transform: `translate(${left}px, ${top}px)`, width, height }}
      aria-busy={busy}
    >
      <button type="button" className="tile-open" onClick={() => onOpen(filename)}>
        <Thumbnail src={image.thumbnail} alt={filename} />
      </button>
      <div className="tile-actions tile-actions-right">
        <span className="tile-actions-end">
          <a
            className="tile-action"
            href={hdImageUrl(filename)}
            download={filename}
            aria-label={`Download ${filename}`}
            title="Download"
          >
            <DownloadIcon />
          </a>
          <button
            type="button"
            className="tile-action tile-action-danger"
            aria-label={`Delete ${filename}`}
            title="Delete"
            disabled={busy}
            onClick={() => onDelete(filename)}
          >
            <TrashIcon />
            <span className="tile-action-text">Delete</span>
          </button>
        </span>
      </div>
    </div>
  );
});
