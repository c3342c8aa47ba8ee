import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import { createColumnHelper, tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';

const features = tableFeatures({});
export const columnHelper = <T extends RowData>() => createColumnHelper<typeof features, T>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a column list mixes value types, as TanStack's own examples type it
export type Columns<T extends RowData> = Array<ColumnDef<typeof features, T, any>>;

interface DataTableProps<T extends RowData> {
  columns: Columns<T>;
  rows: T[];
  caption: string;
  /** Rows open something: each row is then reachable by Tab and opens with Enter or a click. */
  onOpen?: (row: T) => void;
  rowLabel?: (row: T) => string;
  rowClass?: (row: T) => string | undefined;
  empty?: ReactNode;
  /** Column ids whose cells are numbers (right-aligned, tabular figures). */
  numeric?: readonly string[];
}

/**
 * The console's lists (TanStack Table, headless): the table builds the rows and cells, the markup
 * and styles are ours — a plain <table> with a caption, dense rows, numbers aligned.
 */
export function DataTable<T extends RowData>({
  columns,
  rows,
  caption,
  onOpen,
  rowLabel,
  rowClass,
  empty,
  numeric = [],
}: DataTableProps<T>) {
  const stableColumns = useMemo(() => columns, [columns]);
  const table = useTable({ features, columns: stableColumns, data: rows });
  const onKey = (row: T) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' && onOpen) {
      event.preventDefault();
      onOpen(row);
    }
  };
  return (
    <div className="table-wrap">
      <table className={onOpen ? 'table table--rows-open' : 'table'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={numeric.includes(header.column.id) ? 'num' : undefined}>
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className={rowClass?.(row.original)}
              tabIndex={onOpen ? 0 : undefined}
              aria-label={onOpen && rowLabel ? rowLabel(row.original) : undefined}
              onClick={onOpen ? () => onOpen(row.original) : undefined}
              onKeyDown={onOpen ? onKey(row.original) : undefined}
            >
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={numeric.includes(cell.column.id) ? 'num' : undefined}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="table__empty">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
