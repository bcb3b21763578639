import type { HdImage } from '@tessera/contract';
import { memo, useCallback } from 'react';
import { hdImageUrl } from '../../lib/api/images';
import { imageKey } from '../gallery/gallery-image';
import { DeleteImageButton, DownloadImageLink } from '../gallery/image-actions';
import { IMAGE_ROW_HEIGHT, ImageRow } from '../gallery/image-row';
import { VirtualTable } from '../gallery/virtual-table';

export interface HdTableProps {
  images: readonly HdImage[];
  deleting: ReadonlySet<string>;
  onOpen: (filename: string) => void;
  onDelete: (filename: string) => void;
}

/** The Output List view (checklist O2): Preview, Name, Size, Date and download/delete. */
export function HdTable({ images, deleting, onOpen, onDelete }: HdTableProps) {
  const renderRow = useCallback(
    (image: HdImage, index: number) => (
      <HdRow
        key={image.filename}
        image={image}
        index={index}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onDelete={onDelete}
      />
    ),
    [deleting, onOpen, onDelete],
  );
  return (
    <VirtualTable
      items={images}
      getKey={imageKey}
      rowHeight={IMAGE_ROW_HEIGHT}
      caption="HD images"
      columns={[
        { className: 'col-preview', header: 'Preview' },
        { className: 'col-name', header: 'Name' },
        { className: 'col-size', header: 'Size' },
        { className: 'col-date', header: 'Date' },
        { className: 'col-download-delete', header: 'Download / Delete' },
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
  busy: boolean;
  onOpen: (filename: string) => void;
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
          <DownloadImageLink filename={filename} href={hdImageUrl(filename)} place="row" />
          <DeleteImageButton filename={filename} busy={busy} place="row" onDelete={onDelete} />
        </>
      }
    />
  );
});
