import { formatImageDate, sizeLabelFromFactors } from '@tessera/contract';
import type { HdImage } from '@tessera/contract';
import { memo, useCallback } from 'react';
import { hdImageUrl } from '../../lib/api/images';
import { DownloadIcon, TrashIcon } from '../gallery/icons';
import { Thumbnail } from '../gallery/thumbnail';
import { VirtualTable } from '../gallery/virtual-table';

const ROW_HEIGHT = 72;
const COLUMN_COUNT = 5;
const getKey = (image: HdImage) => image.filename;

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
      getKey={getKey}
      rowHeight={ROW_HEIGHT}
      caption="HD images"
      columnCount={COLUMN_COUNT}
      columns={
        <>
          <col className="col-preview" />
          <col className="col-name" />
          <col className="col-size" />
          <col className="col-date" />
          <col className="col-actions" />
        </>
      }
      header={
        <tr aria-rowindex={1}>
          <th scope="col">Preview</th>
          <th scope="col">Name</th>
          <th scope="col">Size</th>
          <th scope="col">Date</th>
          <th scope="col">Download / Delete</th>
        </tr>
      }
      renderRow={renderRow}
    />
  );
}

const HdRow = memo(function HdRow({
  image,
  index,
  busy,
  onOpen,
  onDelete,
}: {
  image: HdImage;
  index: number;
  busy: boolean;
  onOpen: (filename: string) => void;
  onDelete: (filename: string) => void;
}) {
  const { filename, metadata } = image;
  return (
    <tr
      className={busy ? 'gallery-row is-busy' : 'gallery-row'}
      aria-rowindex={index + 2}
      aria-busy={busy}
    >
      <td className="cell-preview">
        <button
          type="button"
          className="row-preview"
          tabIndex={-1}
          aria-hidden="true"
          onClick={() => onOpen(filename)}
        >
          <Thumbnail src={image.thumbnail} alt="" />
        </button>
      </td>
      <td className="cell-name">
        <button type="button" className="row-name" onClick={() => onOpen(filename)}>
          {filename}
        </button>
      </td>
      <td className="cell-size">{sizeLabelFromFactors(metadata) ?? ''}</td>
      <td className="cell-date">{formatImageDate(metadata)}</td>
      <td className="cell-actions">
        <a
          className="icon-button"
          href={hdImageUrl(filename)}
          download={filename}
          aria-label={`Download ${filename}`}
          title="Download"
        >
          <DownloadIcon />
        </a>
        <button
          type="button"
          className="icon-button icon-button-danger"
          aria-label={`Delete ${filename}`}
          title="Delete"
          disabled={busy}
          onClick={() => onDelete(filename)}
        >
          <TrashIcon />
        </button>
      </td>
    </tr>
  );
});
