/**
 * A report table as CSV, made in the browser from the same reply the table shows (decision 067):
 * a UTF-8 byte order mark (spreadsheets need it for accents), CRLF lines, and the audit trail's
 * guard against formulas (decision 047): a text cell starting with = + - @, a tab or a carriage
 * return gets a leading '. Numbers stay numbers.
 */
export type CsvCell = string | number | null;

export function csvText(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

function cell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
