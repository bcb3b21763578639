import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useVirtualItemKey } from './use-virtual-item-key';

export interface TableColumn {
  /** The <col>'s class, which fixes the column's width so rows coming and going do not shift it. */
  className: string;
  /** What the column's <th scope="col"> holds. */
  header: ReactNode;
  headerClassName?: string;
}

export interface VirtualTableProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** Every row is this tall (CSS keeps it so), which makes the scroll height exact. */
  rowHeight: number;
  caption: string;
  columns: readonly TableColumn[];
  /** One body row: a <tr> with aria-rowindex = index + 2 (the header is row 1). */
  renderRow: (item: T, index: number) => ReactNode;
  /** Extra classes of the <table>, for column widths that depend on the content. */
  className?: string;
  /** Deleted items whose row stays, empty, while the pointer is over the table (issue 22, 8). */
  vacated?: ReadonlySet<string>;
}

/**
 * A real <table> (checklist: accessibility) whose body holds only the rows near the viewport;
 * two spacer rows stand for the rest, and aria-rowcount tells assistive tech the true size.
 */
export function VirtualTable<T>({
  items,
  getKey,
  rowHeight,
  caption,
  columns,
  renderRow,
  className,
  vacated,
}: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useVirtualItemKey(items, getKey);
  // The app is not built with the React Compiler, so nothing memoises what this returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey,
    // Generous: the header sits above the rows inside the same scroll box.
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  const before = rows[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (rows[rows.length - 1]?.end ?? 0);

  return (
    <div ref={scrollRef} className="gallery-scroll gallery-table-scroll">
      <table
        className={className ? `gallery-table ${className}` : 'gallery-table'}
        aria-rowcount={items.length + 1}
      >
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.className} className={column.className} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column.className} scope="col" className={column.headerClassName}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr className="gallery-table-spacer" aria-hidden="true" style={{ height: before }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {rows.map((row) => {
            const item = items[row.index];
            if (item === undefined) return null;
            const key = getKey(item);
            if (vacated?.has(key))
              return (
                <tr key={key} className="gallery-row gallery-row-vacated" aria-hidden="true">
                  <td colSpan={columns.length} />
                </tr>
              );
            return renderRow(item, row.index);
          })}
          {after > 0 && (
            <tr className="gallery-table-spacer" aria-hidden="true" style={{ height: after }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
