import { useMemo } from 'react';
import type { RowData } from '@tanstack/react-table';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { formatNumber, t } from '../../i18n/t.ts';
import { downloadText } from '../../ui/download.ts';
import type { CsvCell } from '@rewards/contract/csv';
import { reportCsv } from './report-csv.ts';

export interface ReportColumn<T> {
  id: string;
  header: string;
  /** The cell's value, as the CSV has it: a figure as a number (the CSV writer guards text, never numbers). */
  value: (row: T) => CsvCell;
  /** How the table shows it (default: the value; numbers grouped). */
  show?: (row: T) => string;
  numeric?: boolean;
}

/**
 * A report's table and its CSV download (report-csv.ts), both from one column list, so the file
 * has exactly the lines and columns on screen (raw numbers, not the formatted ones). The caption
 * names the table for screen readers and the chart above it points here.
 */
export function ReportTable<T extends RowData>({
  caption,
  columns,
  rows,
  fileName,
}: {
  caption: string;
  columns: ReportColumn<T>[];
  rows: T[];
  fileName: string;
}) {
  const helper = columnHelper<T>();
  const tableColumns = useMemo(
    () =>
      columns.map((c) =>
        helper.display({
          id: c.id,
          header: c.header,
          cell: (info) => {
            const row = info.row.original;
            if (c.show) return c.show(row);
            const value = c.value(row);
            return typeof value === 'number' ? formatNumber(value) : (value ?? '—');
          },
        }),
      ) as Columns<T>,
    // The helper is stateless; the columns are the identity that matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns],
  );
  return (
    <>
      <DataTable
        caption={caption}
        columns={tableColumns}
        rows={rows}
        numeric={columns.filter((c) => c.numeric).map((c) => c.id)}
        empty={t('reports.empty')}
      />
      <p>
        <button type="button" className="button button--small" onClick={() => downloadText(fileName, reportCsv(columns, rows))}>
          {t('reports.csv', { table: caption })}
        </button>
      </p>
    </>
  );
}
