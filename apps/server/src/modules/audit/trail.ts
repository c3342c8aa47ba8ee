import type { ConsoleAuditEntry, ConsoleAuditPage, ConsoleAuditQuery } from '@rewards/contract/console-participants';
import { CSV_BOM, csvLine } from '@rewards/contract/csv';
import type { Db } from '../../db/database.ts';
import type { AuditLogEntry } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import { checkClientInScope, type StaffScope } from '../staff/scope.ts';
import { participantIn } from '../participants/service.ts';
import { trailPage, type TrailCursor, type TrailFilter } from './trail-store.ts';

/**
 * The console's audit trail (issue 17, section 3; docs/decisions/047): every entry the caller may
 * see, newest first, filtered by actor, action, client, participant and dates; pages of JSON or
 * one CSV file. CLI, admin API and console entries side by side: they are one table.
 */

export const TRAIL_DEFAULT_LIMIT = 50;
/** Rows of one CSV export at most: a year of a busy installation; more is the CLI's job. */
export const CSV_MAX_ROWS = 100_000;
/** Rows read per query while a CSV is written: each read is short, so writers are never held up long. */
const CSV_BATCH = 1_000;

/** An entry as the console shows it: details parsed, the reason lifted out of them. */
export function toConsoleAuditEntry(row: AuditLogEntry): ConsoleAuditEntry {
  let details: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.details);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) details = parsed as Record<string, unknown>;
  } catch {
    // An unreadable details column shows as none rather than failing the page.
  }
  const reason = typeof details.reason === 'string' ? details.reason : null;
  return {
    id: row.id,
    at: row.at,
    clientId: row.client_id,
    actor: row.actor,
    actorKind: row.actor_kind,
    action: row.action,
    subject: row.subject,
    origin: row.origin,
    reason,
    details,
  };
}

/**
 * The subjects a participant's entries are recorded under. Every writer today records the
 * username as it was then (points, participants.*, launch-as.issue/use); launch-as.open falls
 * back to the participant's id. Both are matched; an entry written under a username the
 * participant no longer has (changed at activation or by an operator) is not.
 */
export function participantSubjects(participant: { id: string; username: string }): string[] {
  return [...new Set([participant.id, participant.username])];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** YYYY-MM-DD (a UTC day) or an ISO time with its offset; anything else is a 400. */
function parseTime(text: string, name: string): { at: string; day: boolean } {
  const day = DATE.test(text);
  const time = day ? Date.parse(`${text}T00:00:00.000Z`) : ISO.test(text) ? Date.parse(text) : Number.NaN;
  // Date.parse rolls 2026-02-31 over to March: a day must come back as itself.
  if (Number.isNaN(time) || (day && new Date(time).toISOString().slice(0, 10) !== text)) {
    throw errors.validation(`"${name}" must be a date (YYYY-MM-DD) or an ISO time with its offset`);
  }
  return { at: new Date(time).toISOString(), day };
}

const DAY_MS = 86_400_000;

function decodeCursor(text: string): TrailCursor {
  const [at, id] = decodePageCursor(text, ['string', 'string']);
  return { at, id };
}

/** Text a filter may hold: no control characters (PostgreSQL refuses a NUL), no broken UTF-16. */
function plain(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!value.isWellFormed() || /\p{Cc}/u.test(value)) throw errors.validation(`"${name}" has characters that cannot be searched`);
  return value.trim();
}

/** The query checked and scoped to what the caller may see; 403 for a client outside it. */
export async function trailFilter(db: Db, scope: StaffScope, query: Omit<ConsoleAuditQuery, 'limit' | 'after'>): Promise<TrailFilter> {
  const clientId = plain(query.clientId, 'clientId');
  const participantId = plain(query.participantId, 'participantId');
  if (clientId !== undefined) checkClientInScope(scope, clientId);
  const from = query.from === undefined || query.from === '' ? undefined : parseTime(query.from, 'from');
  const to = query.to === undefined || query.to === '' ? undefined : parseTime(query.to, 'to');
  // `to` as a date takes in its whole day; as a time, that instant too.
  const before = to && (to.day ? new Date(Date.parse(to.at) + DAY_MS).toISOString() : new Date(Date.parse(to.at) + 1).toISOString());
  if (from && before && from.at >= before) throw errors.validation('"from" is after "to"');
  const clients: TrailFilter['clients'] = clientId !== undefined ? [clientId] : scope.owner ? 'all' : scope.clientIds;
  const filter: TrailFilter = {
    clients,
    actorPrefix: plain(query.staff, 'staff'),
    actionPrefix: plain(query.action, 'action'),
    ...(from ? { from: from.at } : {}),
    ...(before ? { before } : {}),
  };
  if (participantId !== undefined) {
    const inClients = clientId !== undefined ? [clientId] : scope.clientIds;
    const participant = await participantIn(db, participantId, inClients);
    // Unknown (or deleted): the entries recorded under the id itself, in the clients the caller sees.
    filter.subject = participant
      ? { clientId: participant.client_id, subjects: participantSubjects(participant) }
      : { clientId, subjects: [participantId] };
  }
  return filter;
}

export async function auditTrailPage(db: Db, scope: StaffScope, query: ConsoleAuditQuery): Promise<ConsoleAuditPage> {
  const filter = await trailFilter(db, scope, query);
  const limit = query.limit ?? TRAIL_DEFAULT_LIMIT;
  const after = query.after === undefined || query.after === '' ? undefined : decodeCursor(query.after);
  const rows = await trailPage(db, filter, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { entries: page.map(toConsoleAuditEntry), next: rows.length > limit && last ? encodePageCursor([last.at, last.id]) : null };
}

/** The latest entries about one participant (their page), whoever may see the page may see these. */
export async function participantAudit(
  db: Db,
  participant: { id: string; client_id: string; username: string },
  limit: number,
): Promise<ConsoleAuditEntry[]> {
  const rows = await trailPage(
    db,
    { clients: [participant.client_id], subject: { clientId: participant.client_id, subjects: participantSubjects(participant) } },
    undefined,
    limit,
  );
  return rows.map(toConsoleAuditEntry);
}

// ── CSV ─────────────────────────────────────────────────────────────────

export const CSV_COLUMNS = ['at', 'client', 'actor', 'actor_kind', 'action', 'subject', 'origin', 'reason', 'details'] as const;

/** One entry's line, by the one CSV writer (decision 073): every cell is text, neutralised if it would run as a formula. */
function entryLine(entry: ConsoleAuditEntry): string {
  const { reason: _reason, ...rest } = entry.details;
  const cells = [
    entry.at,
    entry.clientId,
    entry.actor,
    entry.actorKind,
    entry.action,
    entry.subject,
    entry.origin,
    entry.reason,
    Object.keys(rest).length === 0 ? '' : JSON.stringify(rest),
  ];
  return csvLine(cells);
}

/**
 * The CSV of every entry the filter matches, newest first, up to CSV_MAX_ROWS: the header, then
 * a line per entry, read CSV_BATCH rows a query (keyset), so no read holds the database for long
 * and the whole file is never in memory. Starts with a UTF-8 byte order mark, which spreadsheet
 * programs need to read accents right.
 */
export async function* auditTrailCsv(db: Db, filter: TrailFilter, maxRows = CSV_MAX_ROWS): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(CSV_COLUMNS);
  let after: TrailCursor | undefined;
  let written = 0;
  while (written < maxRows) {
    const rows = await trailPage(db, filter, after, Math.min(CSV_BATCH, maxRows - written));
    if (rows.length === 0) return;
    yield rows.map((row) => entryLine(toConsoleAuditEntry(row))).join('');
    written += rows.length;
    after = rows.at(-1);
    if (rows.length < CSV_BATCH) return;
  }
}

/** The download's name: the day it was made. */
export function csvFileName(now = new Date()): string {
  return `audit-${now.toISOString().slice(0, 10)}.csv`;
}
