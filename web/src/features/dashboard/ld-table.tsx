import { TEXT_BUNDLES } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { memo, useCallback } from 'react';
import { imageKey } from '../../components/gallery/gallery-image';
import {
  AssignTagsButton,
  DeleteImageButton,
  StarImageButton,
} from '../../components/gallery/image-actions';
import { IMAGE_ROW_HEIGHT, ImageRow } from '../../components/gallery/image-row';
import { seriesFaceOf } from '../../components/gallery/series';
import { SeriesBadge } from '../../components/gallery/series-badge';
import { VirtualTable } from '../../components/gallery/virtual-table';
import { useTexts } from '../../lib/i18n';
import { TagChips } from '../tags';
import type { LdImageHandlers } from './ld-tile';

export interface LdTableProps {
  images: readonly LdImage[];
  /** Rows kept empty where images were deleted (see VirtualTable). */
  vacated: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
  onSelectAll: (select: boolean) => void;
  /** The same for every row: a stable object, so the rows render again only when it changes. */
  handlers: LdImageHandlers;
}

/** The List view of SPEC §2 (checklist D6): select, Preview, Name, Tags, Size, Date; and Star. */
export function LdTable({
  images: placed,
  vacated,
  selected,
  deleting,
  onSelectAll,
  handlers,
}: LdTableProps) {
  const texts = useTexts(TEXT_BUNDLES.dashboard);
  const galleryTexts = useTexts(TEXT_BUNDLES.gallery);
  const { columns } = texts;
  const images =
    vacated.size === 0 ? placed : placed.filter((image) => !vacated.has(imageKey(image)));
  const untagged = images.every((image) => image.tags.length === 0);
  const allSelected = images.length > 0 && images.every((image) => selected.has(image.filename));
  const renderRow = useCallback(
    (image: LdImage, index: number) => (
      <LdRow
        key={image.filename}
        image={image}
        index={index}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        {...handlers}
      />
    ),
    [selected, deleting, handlers],
  );
  const selectAll = (
    <input
      type="checkbox"
      aria-label={galleryTexts.selectAll}
      checked={allSelected}
      onChange={(event) => onSelectAll(event.target.checked)}
    />
  );

  return (
    <VirtualTable
      items={placed}
      vacated={vacated}
      getKey={imageKey}
      rowHeight={IMAGE_ROW_HEIGHT}
      caption={texts.caption}
      className={untagged ? 'is-untagged' : undefined}
      columns={[
        { className: 'col-select', header: selectAll, headerClassName: 'cell-select' },
        { className: 'col-preview', header: columns.preview },
        { className: 'col-name', header: columns.name },
        { className: 'col-tags', header: columns.tags },
        { className: 'col-size', header: columns.size },
        { className: 'col-date', header: columns.date },
        {
          className: 'col-actions col-actions-3',
          header: <span className="visually-hidden">{texts.actions}</span>,
        },
      ]}
      renderRow={renderRow}
    />
  );
}

interface LdRowProps extends LdImageHandlers {
  image: LdImage;
  index: number;
  selected: boolean;
  busy: boolean;
}

const LdRow = memo(function LdRow({
  image,
  busy,
  onAssignTags,
  onDelete,
  onToggleStar,
  onSelectSeries,
  ...row
}: LdRowProps) {
  const { filename } = image;
  const face = seriesFaceOf(image);
  return (
    <ImageRow
      image={image}
      busy={busy}
      {...row}
      actions={
        <>
          <StarImageButton
            filename={filename}
            starred={image.starred ?? false}
            place="row"
            onToggleStar={onToggleStar}
          />
          <AssignTagsButton filename={filename} place="row" onAssignTags={onAssignTags} />
          <DeleteImageButton filename={filename} busy={busy} place="row" onDelete={onDelete} />
        </>
      }
    >
      <td className="cell-tags">
        {face && (
          <SeriesBadge
            face={face}
            place="row"
            filename={filename}
            onSelectSeries={onSelectSeries}
          />
        )}
        <TagChips ids={image.tags} />
      </td>
    </ImageRow>
  );
});
