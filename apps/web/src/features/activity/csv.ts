import { csvText } from '@rewards/contract/csv';
import type { StatementRow } from './statement.ts';

interface CsvHeaders {
  date: string;
  description: string;
  amount: string;
  balance: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Local date and time as `YYYY-MM-DD HH:MM:SS`: every spreadsheet reads it as a date-time. */
export function spreadsheetDate(time: number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The statement as a spreadsheet opens it, by the product's one CSV writer (decision 073): UTF-8
 * with a byte-order mark (so Excel reads accents and Arabic), a header row in the participant's
 * language, the rows in the order shown, a description that would run as a formula kept as text,
 * and numbers as plain integers (`-1200`, no grouping), which every spreadsheet reads as numbers
 * whatever its own locale.
 */
export function statementCsv(rows: readonly StatementRow[], headers: CsvHeaders): string {
  return csvText(
    [headers.date, headers.description, headers.amount, headers.balance],
    rows.map((row) => [spreadsheetDate(row.time), row.description, row.amount, row.balance]),
    { bom: true },
  );
}
