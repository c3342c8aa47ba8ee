import { Readable, pipeline } from 'node:stream';
import { parse, type CsvError, type Parser } from 'csv-parse';

/**
 * How every import reads its CSV: the console's upload (service.ts, stageBody) and the `rewards
 * points import` and `participants import` commands, so that the three take the same file the
 * same way and refuse the same lines (issue 27 §4, docs/decisions/064, amended 2026-11-28).
 */

/**
 * The longest line an import takes, in bytes (its line break aside). A points line's fields are at
 * most ~650 characters (username, description and external_id 200 each: 2.6 kB even in 4-byte
 * characters); a participants line's ~1 kB plus 200 per program. 16 kB is four times the 4 kB
 * either needs in practice, takes a participant in dozens of programs, and is nothing to hold:
 * the parser holds at most one line of this size at a time. A line past it is not a line of these files at all (a file with another delimiter or no line
 * breaks, a binary file, a quote never closed), and reading it to its end would put it whole in
 * memory first: 100 MB of one line cost the server 540 MB and the database 100 MB.
 */
export const IMPORT_MAX_LINE_BYTES = 16 * 1024;

/** A file's bytes as they come: a stream, or (in tests) a list of pieces. */
export type Chunks = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/** A line (or a quoted field running over several lines) longer than the cap: the whole file is refused there. */
export class LineTooLong extends Error {
  /** The file's line number (the header is line 1) at which the cap was passed. */
  readonly line: number;
  readonly cap: number;
  /** A quoted field that went on over line breaks, rather than one long line. */
  readonly quoted: boolean;

  constructor(line: number, cap: number, quoted = false) {
    const size = `${cap.toLocaleString('en-US')} bytes (${Math.round(cap / 1024)} kB)`;
    super(
      quoted
        ? `Line ${line} is inside a quoted field that runs on past ${size}, the most an import line may have: is a closing quote missing?`
        : `Line ${line} is longer than ${size}, the most an import line may have: is this the right file, a CSV with one record per line?`,
    );
    this.line = line;
    this.cap = cap;
    this.quoted = quoted;
  }
}

/**
 * The source's chunks as they come, refused (LineTooLong) in the chunk where a line passes `cap`
 * bytes: that chunk is not passed on, and nothing more is read. Counts bytes between line feeds
 * (a CR before one is counted, which costs a CRLF file one byte of its 16 kB).
 */
export async function* linesCapped(source: Chunks, cap = IMPORT_MAX_LINE_BYTES): AsyncGenerator<Buffer> {
  let line = 1;
  let length = 0;
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      length += (end === -1 ? chunk.length : end) - start;
      if (length > cap) throw new LineTooLong(line, cap);
      if (end === -1) break;
      line += 1;
      length = 0;
      start = end + 1;
    }
    yield chunk;
  }
}

/**
 * The parser of an import file: csv-parse with the options the three readers share (a BOM
 * dropped, empty lines skipped, a record that is not CSV skipped and reported by the parser's
 * `skip` event, each record with its `info.lines`), fed through linesCapped. csv-parse's own
 * max_record_size catches what the line cap cannot see, a quoted field running over many short
 * lines, and refuses it the same way (thrown from its on_skip, the error ends the stream). An
 * error of the source (LineTooLong, a read error) ends the parser with it; destroying the parser
 * (a refused header) stops reading the source.
 */
export function importCsvParser(source: Chunks, cap = IMPORT_MAX_LINE_BYTES): Parser {
  const parser: Parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    skip_records_with_error: true,
    max_record_size: cap,
    on_skip: (error: CsvError | undefined) => {
      if (error?.code === 'CSV_MAX_RECORD_SIZE') throw new LineTooLong(Number(error.lines ?? 0), cap, true);
      // What csv-parse does without an on_skip of ours: the callers listen to this event.
      parser.emit('skip', error);
    },
  });
  // pipeline rather than pipe: pipe passes no error on, and would leave the source running when the parser stops.
  pipeline(Readable.from(linesCapped(source, cap)), parser, () => {});
  return parser;
}
