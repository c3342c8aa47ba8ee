/**
 * The one CSV writer of the product (decision 073): every CSV the server, the command, the console
 * and the portal write is made of these lines, so the guard against spreadsheet formulas cannot be
 * missed by one of them. Plain functions, no import: the browser bundles it as it is.
 *
 * - A cell is typed. A JS **number** is written as it is (`-250` stays a number a spreadsheet can
 *   sum); it must be finite. A **string** is text: when it starts with `=`, `+`, `-`, `@`, a tab or
 *   a carriage return, a spreadsheet would run it as a formula, so it gets a leading `'` (OWASP's
 *   advice) — so a figure meant as a number must be passed as a number, never as its text.
 *   `null` and `undefined` are an empty cell.
 * - A cell holding a comma, a quote, a carriage return or a line feed is quoted, its quotes doubled
 *   (RFC 4180).
 * - Lines end in CRLF (RFC 4180, what spreadsheets write). Files meant to be opened in a spreadsheet
 *   start with a UTF-8 byte order mark (CSV_BOM), without which Excel misreads accents.
 */
export type CsvCell = string | number | null | undefined;

/** Written first in a file for spreadsheets (Excel needs it to read UTF-8). */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as CSV text: numbers as they are, text neutralised if it would run as a formula, quoted as needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    // NaN or Infinity would reach the spreadsheet as text: a bug upstream, not a value to write.
    if (!Number.isFinite(value)) throw new TypeError(`A CSV number must be finite, not ${value}`);
    return String(value);
  }
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells, CRLF included: what a streamed export writes per record (a header is a line of strings). */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A whole file: the header, then the rows; `bom` says whether it starts with the byte order mark (each export decides). */
export function csvText(header: readonly string[], rows: Iterable<readonly CsvCell[]>, options: { bom: boolean }): string {
  let text = options.bom ? CSV_BOM : '';
  text += csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}
