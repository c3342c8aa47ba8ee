import { csvText } from '@rewards/contract/csv';
import type { ReportColumn } from './ReportTable.tsx';

/**
 * A report table as CSV, made in the browser from the same reply the table shows (decision 067)
 * by the product's one CSV writer (decision 073): a byte order mark, CRLF lines, the columns'
 * headers, then each row's values; text that would run as a formula is neutralised, numbers stay
 * numbers.
 */
export function reportCsv<T>(columns: ReadonlyArray<ReportColumn<T>>, rows: readonly T[]): string {
  return csvText(
    columns.map((c) => c.header),
    rows.map((row) => columns.map((c) => c.value(row))),
    { bom: true },
  );
}
