import { formatImageDate, sizeLabelFromFactors } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { memo, useCallback } from 'react';
import { TagIcon, TrashIcon } from '../gallery/icons';
import { Thumbnail } from '../gallery/thumbnail';
import { VirtualTable } from '../gallery/virtual-table';
import { TagChips } from '../tags/tag-chips';

const ROW_HEIGHT = 72;
const COLUMN_COUNT = 7;

export interface LdTableProps {
  images: readonly LdImage[];
  selected: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
  onSelectAll: (select: boolean) => void;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onAssignTags: (filename: string) => void;
  onDelete: (filename: string) => void;
}

const getKey = (image: LdImage) => image.filename;

/** The List view of SPEC §2 (checklist D6): select, Preview, Name, Tags, Size, Date. */
export function LdTable({
  images,
  selected,
  deleting,
  onSelectAll,
  onOpen,
  onToggleSelect,
  onAssignTags,
  onDelete,
}: LdTableProps) {
  const allSelected = images.length > 0 && images.every((image) => selected.has(image.filename));
  const renderRow = useCallback(
    (image: LdImage, index: number) => (
      <LdRow
        key={image.filename}
        image={image}
        index={index}
        selected={selected.has(image.filename)}
        busy={deleting.has(image.filename)}
        onOpen={onOpen}
        onToggleSelect={onToggleSelect}
        onAssignTags={onAssignTags}
        onDelete={onDelete}
      />
    ),
    [selected, deleting, onOpen, onToggleSelect, onAssignTags, onDelete],
  );

  return (
    <VirtualTable
      items={images}
      getKey={getKey}
      rowHeight={ROW_HEIGHT}
      caption="Low-definition images"
      columnCount={COLUMN_COUNT}
      columns={
        <>
          <col className="col-select" />
          <col className="col-preview" />
          <col className="col-name" />
          <col className="col-tags" />
          <col className="col-size" />
          <col className="col-date" />
          <col className="col-actions" />
        </>
      }
      header={
        <tr aria-rowindex={1}>
          <th scope="col" className="cell-select">
            <input
              type="checkbox"
              aria-label="Select all images"
              checked={allSelected}
              onChange={(event) => onSelectAll(event.target.checked)}
            />
          </th>
          <th scope="col">Preview</th>
          <th scope="col">Name</th>
          <th scope="col">Tags</th>
          <th scope="col">Size</th>
          <th scope="col">Date</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      }
      renderRow={renderRow}
    />
  );
}

interface LdRowProps {
  image: LdImage;
  index: number;
  selected: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  onToggleSelect: (filename: string) => void;
  onAssignTags: (filename: string) => void;
  onDelete: (filename: string) => void;
}

const LdRow = memo(function LdRow({
  image,
  index,
  selected,
  busy,
  onOpen,
  onToggleSelect,
  onAssignTags,
  onDelete,
}: LdRowProps) {
  const { filename, metadata } = image;
  const classes = ['gallery-row', selected && 'is-selected', busy && 'is-busy']
    .filter(Boolean)
    .join(' ');
  return (
    <tr className={classes} aria-rowindex={index + 2} aria-busy={busy}>
      <td className="cell-select">
        <input
          type="checkbox"
          aria-label={`Select ${filename}`}
          checked={selected}
          onChange={() => onToggleSelect(filename)}
        />
      </td>
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
      <td className="cell-tags">
        <TagChips ids={image.tags} />
      </td>
      <td className="cell-size">{sizeLabelFromFactors(metadata) ?? ''}</td>
      <td className="cell-date">{formatImageDate(metadata)}</td>
      <td className="cell-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Assign tags to ${filename}`}
          title="Assign tags"
          onClick={() => onAssignTags(filename)}
        >
          <TagIcon />
        </button>
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
