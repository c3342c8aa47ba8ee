import type { LedgerKind } from '../ledger/service.ts';
import { LRUCache } from 'lru-cache';

/** The columns of a points file, in any order (issue 8). */
export const POINTS_COLUMNS = ['username', 'points', 'date', 'description', 'external_id'] as const;
export type PointsColumn = (typeof POINTS_COLUMNS)[number];

const MAX_POINTS = 100_000_000;
const MAX_DESCRIPTION = 200;
const MAX_EXTERNAL_ID = 200;
const MAX_USERNAME = 200;

/** A line that passed the checks that need no database. */
export interface PointsLine {
  line: number;
  username: string;
  points: number;
  occurredAt: string;
  /** What is stored as the entry's description (the line's, or the English default). */
  description: string;
  descriptionKey: string;
  descriptionParams?: Record<string, string>;
  kind: LedgerKind;
  externalId: string;
  /** The ledger reference: the per-client idempotency key. */
  reference: string;
}

export interface LineProblem {
  line: number;
  reason: string;
}

/** Column positions from the header row, or the reason the header is not a points file's. */
export function columnsOf(header: readonly string[]): Record<PointsColumn, number> | string {
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(POINTS_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) return `unknown column(s) ${unknown.join(', ')}; the header is ${POINTS_COLUMNS.join(',')} in any order`;
  const missing = POINTS_COLUMNS.filter((name) => !names.includes(name));
  if (missing.length > 0) return `missing column(s) ${missing.join(', ')}; the header is ${POINTS_COLUMNS.join(',')} in any order`;
  if (new Set(names).size !== names.length) return 'a column is named twice in the header';
  return Object.fromEntries(POINTS_COLUMNS.map((name) => [name, names.indexOf(name)])) as Record<PointsColumn, number>;
}

const WHOLE = /^[+-]?\d{1,12}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date (YYYY-MM-DD, taken as noon UTC, so that it shows as that day in every time zone from
 * UTC-11 to UTC+11) or an instant with its offset, as stored ISO text; undefined if neither.
 */
export function occurredAtOf(value: string): string | undefined {
  // A file repeats a few dates a million times: each is worked out once ('' for not a date).
  return seenDates.memo(value) || undefined;
}

const seenDates = new LRUCache<string, string>({ max: 10_000, memoMethod: (value) => readDate(value.trim()) ?? '' });

function readDate(text: string): string | undefined {
  const day = DAY.exec(text);
  if (day) {
    const at = new Date(`${text}T12:00:00.000Z`);
    // Date accepts 2026-02-31 as March 3rd; the round trip refuses it.
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) return undefined;
    return at.toISOString();
  }
  if (!INSTANT.test(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** Checks one record against the columns; the database's checks (username, balance, idempotency) come later. */
export function parsePointsLine(
  fields: readonly string[],
  columns: Record<PointsColumn, number>,
  width: number,
  line: number,
): PointsLine | LineProblem {
  if (fields.length !== width) return { line, reason: `${fields.length} fields where the header has ${width}` };
  const get = (column: PointsColumn) => (fields[columns[column]] ?? '').trim();
  const externalId = get('external_id');
  if (!externalId) return { line, reason: 'external_id is missing' };
  if (externalId.length > MAX_EXTERNAL_ID) return { line, reason: `external_id is longer than ${MAX_EXTERNAL_ID} characters` };
  const username = get('username');
  if (!username) return { line, reason: 'username is missing' };
  if (username.length > MAX_USERNAME) return { line, reason: 'unknown username' };
  const pointsText = get('points');
  const points = Number(pointsText);
  if (!WHOLE.test(pointsText) || points === 0 || Math.abs(points) > MAX_POINTS) {
    return { line, reason: `points "${clip(pointsText)}" is not a whole number from -${MAX_POINTS} to ${MAX_POINTS} other than 0` };
  }
  const occurredAt = occurredAtOf(get('date'));
  if (!occurredAt) return { line, reason: `date "${clip(get('date'))}" is not a date such as 2026-11-01 or 2026-11-01T09:30:00Z` };
  const text = get('description');
  if (text.length > MAX_DESCRIPTION) return { line, reason: `description is longer than ${MAX_DESCRIPTION} characters` };
  const kind: LedgerKind = points > 0 ? 'award' : 'adjustment';
  // The participant reads the line's description as it is (the operator wrote it for them), or
  // a translated default when there is none.
  const described = text
    ? { description: text, descriptionKey: 'ledger.import.line', descriptionParams: { description: text } }
    : points > 0
      ? { description: 'Award received', descriptionKey: 'ledger.import.award' }
      : { description: 'Balance adjustment', descriptionKey: 'ledger.operator.adjustment' };
  return { line, username, points, occurredAt, ...described, kind, externalId, reference: `import:${externalId}` };
}

function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
