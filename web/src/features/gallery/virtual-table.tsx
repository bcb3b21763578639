import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef } from 'react';
import type { ReactNode } from 'react';

export interface VirtualTableProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  /** Every row is this tall (CSS keeps it so), which makes the scroll height exact. */
  rowHeight: number;
  caption: string;
  /** The <col> elements, fixing the column widths so rows coming and going do not shift them. */
  columns: ReactNode;
  /** The header row: a <tr> of <th scope="col">. */
  header: ReactNode;
  /** One body row: a <tr> with aria-rowindex = index + 2 (the header is row 1). */
  renderRow: (item: T, index: number) => ReactNode;
  columnCount: number;
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
  header,
  renderRow,
  columnCount,
}: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback(
    (index: number) => {
      const item = items[index];
      return item === undefined ? index : getKey(item);
    },
    [items, getKey],
  );
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
    <div ref={scrollRef} className="gallery-scroll">
      <table className="gallery-table" aria-rowcount={items.length + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>{columns}</colgroup>
        <thead>{header}</thead>
        <tbody>
          {before > 0 && (
            <tr className="gallery-table-spacer" aria-hidden="true" style={{ height: before }}>
              <td colSpan={columnCount} />
            </tr>
          )}
          {rows.map((row) => {
            const item = items[row.index];
            return item === undefined ? null : renderRow(item, row.index);
          })}
          {after > 0 && (
            <tr className="gallery-table-spacer" aria-hidden="true" style={{ height: after }}>
              <td colSpan={columnCount} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
