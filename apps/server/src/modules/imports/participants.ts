import {
  checkParticipant,
  IMPORT_COLUMNS,
  OPTIONAL_IMPORT_COLUMNS,
  type ClientRules,
  type ImportColumn,
  type OptionalImportColumn,
  type RawParticipant,
} from '../participants/fields.ts';
import type { ImportLine } from '../participants/enrolment.ts';
import type { LineProblem } from './points-lines.ts';

/**
 * A participants file's header and lines (docs/decisions/021), shared by `rewards participants
 * import` and the console's import job (docs/decisions/064). The writes are the participants
 * module's (enrolment.ts applyParticipantBatch).
 */
export type HeaderColumn = ImportColumn | OptionalImportColumn;

/** The header's columns by position, or why the header is not a participants file's. */
export function participantColumnsOf(record: readonly string[]): HeaderColumn[] | string {
  const names = record.map((name) => name.trim().toLowerCase());
  const known = new Set<string>([...IMPORT_COLUMNS, ...OPTIONAL_IMPORT_COLUMNS]);
  const unknown = names.filter((name) => !known.has(name));
  const missing = IMPORT_COLUMNS.filter((column) => !names.includes(column));
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  const problems = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    unknown.length > 0 ? `unknown ${unknown.map((n) => `"${n}"`).join(', ')}` : '',
    repeated.length > 0 ? `repeated ${repeated.join(', ')}` : '',
  ].filter((p) => p !== '');
  if (problems.length > 0) {
    return `The header row must name the columns ${IMPORT_COLUMNS.join(',')} (in any order; optional: ${OPTIONAL_IMPORT_COLUMNS.join(',')}): ${problems.join('; ')}`;
  }
  return names as HeaderColumn[];
}

/** One record checked against the header and the client's rules (no database yet). */
export function parseParticipantLine(
  record: readonly string[],
  header: readonly HeaderColumn[],
  rules: ClientRules,
  line: number,
): ImportLine | LineProblem {
  if (record.length !== header.length) return { line, reason: `expected ${header.length} fields, found ${record.length}` };
  const raw = {} as RawParticipant;
  header.forEach((column, index) => (raw[column] = record[index] ?? ''));
  const checked = checkParticipant(raw, rules);
  if (!checked.ok) return { line, reason: checked.reason };
  return { line, fields: checked.fields };
}
