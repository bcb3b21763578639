import type { LdImage } from '@tessera/contract';
import { memo } from 'react';
import {
  AssignTagsButton,
  DeleteImageButton,
  StarImageButton,
} from '../../components/gallery/image-actions';
import { ImageTile } from '../../components/gallery/image-tile';
import type { TileBox } from '../../components/gallery/masonry-grid';
import { seriesFaceOf } from '../../components/gallery/series';
import { SelectSeriesButton, SeriesBadge } from '../../components/gallery/series-badge';
import { StarIcon } from '../../components/icons';
import { TagChips } from '../tags';

/** What the Dashboard's tiles and rows do with an image, by file name. */
export interface LdImageHandlers {
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onAssignTags: (filename: string) => void;
  onDelete: (filename: string) => void;
  onToggleStar: (filename: string, starred: boolean) => void;
  /** Selects every face of a series (issue 25); a face's tile and row offer it. */
  onSelectSeries: (seriesId: string) => void;
}

export interface LdTileProps extends TileBox, LdImageHandlers {
  image: LdImage;
  selected: boolean;
  busy: boolean;
}

/**
 * One image of the Dashboard's masonry grid (checklist D7, D9): Select, Star, Assign tags, Delete
 * and its tags; a starred image shows its star on the picture too; a face of a series shows its
 * badge and offers Select series (issue 25). Memoised: every prop is a primitive, the image record (replaced only when that image
 * changes) or a stable callback.
 */
export const LdTile = memo(function LdTile({
  image,
  selected,
  busy,
  onAssignTags,
  onDelete,
  onToggleStar,
  onSelectSeries,
  ...tile
}: LdTileProps) {
  const { filename } = image;
  const starred = image.starred ?? false;
  const face = seriesFaceOf(image);
  return (
    <ImageTile
      image={image}
      selected={selected}
      busy={busy}
      {...tile}
      actions={
        <>
          <StarImageButton
            filename={filename}
            starred={starred}
            place="tile"
            onToggleStar={onToggleStar}
          />
          {face && (
            <SelectSeriesButton
              filename={filename}
              seriesId={face.seriesId}
              place="tile"
              onSelectSeries={onSelectSeries}
            />
          )}
          <AssignTagsButton filename={filename} place="tile" onAssignTags={onAssignTags} />
          <DeleteImageButton filename={filename} busy={busy} place="tile" onDelete={onDelete} />
        </>
      }
    >
      {face && <SeriesBadge face={face} place="tile" />}
      {/* The button says it to assistive tech; this is for eyes, over the picture. */}
      {starred && (
        <span className="tile-star" aria-hidden="true">
          <StarIcon filled />
        </span>
      )}
      <div className="tile-tags">
        <TagChips ids={image.tags} compact />
      </div>
    </ImageTile>
  );
});
