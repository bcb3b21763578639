import { hdImageUrl, TEXT_BUNDLES } from '@tessera/contract';
import type { HdImage } from '@tessera/contract';
import { memo, useCallback } from 'react';
import { imageKey } from '../../components/gallery/gallery-image';
import { DeleteImageButton, DownloadImageLink } from '../../components/gallery/image-actions';
import { IMAGE_ROW_HEIGHT, ImageRow } from '../../components/gallery/image-row';
import { VirtualTable } from '../../components/gallery/virtual-table';
import { useTexts } from '../../lib/i18n';
import { RetentionNote } from './retention-note';

export interface HdTableProps {
  images: readonly HdImage[];
  /** Rows kept empty where images were deleted (see VirtualTable). */
  vacated: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
  onSelectAll: (select: boolean) => void;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onDelete: (filename: string) => void;
}

/**
 * The Output List view (checklist O2): Preview, Name, Size, Date and download/delete, after a
 * select column (a selection downloads as one ZIP).
 */
export function HdTable({
  images: placed,
  vacated,
  selected,
  deleting,
  onSelectAll,
  onOpen,
  onToggleSelect,
  onDelete,
}: HdTableProps) {
  const T = useTexts(TEXT_BUNDLES.output);
  const images =
    vacated.size === 0 ? placed : placed.filter((image) => !vacated.has(imageKey(image)));
  const allSelected = images.length > 0 && images.every((image) => selected.has(image.filename));
  const renderRow = useCallback(
    (image: HdImage, index: number) => (
      <HdRow
        key={image.filename}
        image={image}
        index={index}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onDelete={onDelete}
      />
    ),
    [selected, deleting, onOpen, onToggleSelect, onDelete],
  );
  const selectAll = (
    <input
      type="checkbox"
      aria-label={T.selectAll}
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
      caption={T.images}
      columns={[
        { className: 'col-select', header: selectAll, headerClassName: 'cell-select' },
        { className: 'col-preview', header: T.preview },
        { className: 'col-name', header: T.name },
        { className: 'col-size', header: T.size },
        { className: 'col-date', header: T.date },
        { className: 'col-download-delete', header: T.downloadDelete },
      ]}
      renderRow={renderRow}
    />
  );
}

const HdRow = memo(function HdRow({
  image,
  busy,
  onDelete,
  ...row
}: {
  image: HdImage;
  index: number;
  selected: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onDelete: (filename: string) => void;
}) {
  const { filename } = image;
  return (
    <ImageRow
      image={image}
      busy={busy}
      {...row}
      actions={
        <>
          {image.removed_by_retention_at === undefined ? (
            <DownloadImageLink filename={filename} href={hdImageUrl(filename)} place="row" />
          ) : (
            <RetentionNote image={image} place="row" />
          )}
          <DeleteImageButton filename={filename} busy={busy} place="row" onDelete={onDelete} />
        </>
      }
    />
  );
});
