import type { LdImage } from '@tessera/contract';
import { memo } from 'react';
import { TagIcon, TrashIcon } from '../gallery/icons';
import { Thumbnail } from '../gallery/thumbnail';
import { TagChips } from '../tags/tag-chips';

export interface LdTileProps {
  image: LdImage;
  top: number;
  left: number;
  width: number;
  height: number;
  selected: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onAssignTags: (filename: string) => void;
  onDelete: (filename: string) => void;
}

/**
 * One image of the masonry grid (checklist D7, D9). The checkbox, the tag-assign button and Delete
 * show on hover, on keyboard focus or when selected; they stay in the DOM (only faded out) so
 * keyboard and screen-reader users reach them too. Memoised: every prop is a primitive, the
 * image record (replaced only when that image changes) or a stable callback.
 */
export const LdTile = memo(function LdTile({
  image,
  top,
  left,
  width,
  height,
  selected,
  busy,
  onOpen,
  onToggleSelect,
  onAssignTags,
  onDelete,
}: LdTileProps) {
  const { filename } = image;
  const classes = ['tile', selected && 'is-selected', busy && 'is-busy'].filter(Boolean).join(' ');
  return (
    <div
      role="listitem"
      className={classes}
      style={{ transform: `translate(${left}px, ${top}px)`, width, height }}
      aria-busy={busy}
    >
      <button type="button" className="tile-open" onClick={() => onOpen(filename)}>
        <Thumbnail src={image.thumbnail} alt={filename} />
      </button>
      <div className="tile-actions">
        <input
          type="checkbox"
          className="tile-check"
          aria-label={`Select ${filename}`}
          checked={selected}
          onChange={() => onToggleSelect(filename)}
        />
        <span className="tile-actions-end">
          <button
            type="button"
            className="tile-action"
            aria-label={`Assign tags to ${filename}`}
            title="Assign tags"
            onClick={() => onAssignTags(filename)}
          >
            <TagIcon />
          </button>
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
      <div className="tile-tags">
        <TagChips ids={image.tags} compact />
      </div>
    </div>
  );
});
