import { hdImageUrl } from '@tessera/contract';
import type { HdImage } from '@tessera/contract';
import { memo } from 'react';
import { DeleteImageButton, DownloadImageLink } from '../../components/gallery/image-actions';
import { ImageTile } from '../../components/gallery/image-tile';
import type { TileBox } from '../../components/gallery/masonry-grid';
import { RetentionNote } from './retention-note';

export interface HdTileProps extends TileBox {
  image: HdImage;
  selected: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onDelete: (filename: string) => void;
}

/**
 * One HD image of the Output grid: opens its details; Select (for a ZIP of several), Download
 * and Delete on hover or focus. An HD the retention policy removed says so over its picture and
 * has no Download.
 */
export const HdTile = memo(function HdTile({ image, busy, onDelete, ...tile }: HdTileProps) {
  const { filename } = image;
  return (
    <ImageTile
      image={image}
      busy={busy}
      {...tile}
      actions={
        <>
          {image.removed_by_retention_at === undefined && (
            <DownloadImageLink filename={filename} href={hdImageUrl(filename)} place="tile" />
          )}
          <DeleteImageButton filename={filename} busy={busy} place="tile" onDelete={onDelete} />
        </>
      }
    >
      <RetentionNote image={image} place="tile" />
    </ImageTile>
  );
});
