import { formatImageDate, sizeLabelFromFactors } from '@tessera/contract';
import { useLocale } from '../../lib/i18n';
import type { ReactNode } from 'react';
import type { GalleryImage } from './gallery-image';
import { itemClasses } from './gallery-image';
import { SelectImageCheckbox } from './image-actions';
import { Thumbnail } from './thumbnail';

/** gallery.css keeps every .gallery-row this tall, which makes the table's scroll height exact. */
export const IMAGE_ROW_HEIGHT = 72;

export interface ImageRowProps {
  image: GalleryImage;
  /** The image's place in the list; the header is row 1. */
  index: number;
  selected?: boolean;
  busy: boolean;
  onOpen: (filename: string) => void;
  /** Given, the row starts with a Select checkbox cell. */
  onToggleSelect?: (filename: string) => void;
  /** The cells between Name and Size, such as the image's tags. */
  children?: ReactNode;
  /** The action buttons of the last cell (see ./image-actions). */
  actions: ReactNode;
}

/**
 * One image of a gallery table: [Select,] Preview, Name, the caller's cells, Size, Date, actions.
 * The preview and the name both open the image's details; only the name is a tab stop.
 */
export function ImageRow({
  image: { filename, thumbnail, metadata },
  index,
  selected = false,
  busy,
  onOpen,
  onToggleSelect,
  children,
  actions,
}: ImageRowProps) {
  const locale = useLocale();
  return (
    <tr
      className={itemClasses('gallery-row', selected, busy)}
      aria-rowindex={index + 2}
      aria-busy={busy}
    >
      {onToggleSelect && (
        <td className="cell-select">
          <SelectImageCheckbox
            filename={filename}
            selected={selected}
            onToggleSelect={onToggleSelect}
          />
        </td>
      )}
      <td className="cell-preview">
        <button
          type="button"
          className="row-preview"
          tabIndex={-1}
          aria-hidden="true"
          onClick={() => onOpen(filename)}
        >
          <Thumbnail src={thumbnail} alt="" />
        </button>
      </td>
      <td className="cell-name">
        <button type="button" className="row-name" onClick={() => onOpen(filename)}>
          {filename}
        </button>
      </td>
      {children}
      <td className="cell-size">{sizeLabelFromFactors(metadata) ?? ''}</td>
      <td className="cell-date">{formatImageDate(metadata, undefined, locale)}</td>
      <td className="cell-actions">{actions}</td>
    </tr>
  );
}
