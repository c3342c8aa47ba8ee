import type { ImportEventLine, ImportEventsPreview } from '@rewards/contract/console-imports';
import { PROGRAM_EVENT_MAX_ATTRIBUTES, PROGRAM_EVENT_MAX_REFERENCES, RETURN_ORIGINAL_REFERENCE } from '@rewards/contract/events';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import {
  checkEventLine,
  postEventsBatch,
  previewEventsBatch,
  type EventLine,
  type EventsPreviewCarry,
  type EventProblem,
  type EventsBatchOutcome,
} from '../events/bulk.ts';
import { anyAltKey, firstLinesOf } from './store.ts';

/**
 * The events kind of import (decision 099): a CSV of what participants did, one event a line,
 * each taken as POST events takes it (decision 097), staged, previewed with the points each line
 * would earn, confirmed and run as the points import is (decisions 064, 091).
 *
 * The columns, in any order, names compared without case, spaces, "_" or "-":
 * - `id` (or `event_id`, `external_id`): the event's id in the client's system, once per client;
 *   `type` (or `event_type`); `username`; `occurredAt` (or `occurred_at`), an ISO 8601 time with
 *   its offset: required.
 * - `amount` (a decimal such as 120.50), `currency` (EUR): optional; an empty cell is no value.
 * - `attr.<name>`: the attribute <name>; `ref.<name>`: the reference <name> (`ref.originalEventId`).
 * - Any other column is an attribute named as the column is (`category`, `store`, `sku`,
 *   `channel`: what a shop's export has), the name as written, since the rules' conditions name
 *   attributes exactly. An empty cell is no attribute.
 * - A line of type `return` names its original event in `ref.originalEventId` (the reference POST
 *   events' returns take), with an amount for a partial return.
 */

type Field = 'id' | 'type' | 'username' | 'occurredAt' | 'amount' | 'currency';
const REQUIRED: readonly Field[] = ['id', 'type', 'username', 'occurredAt'];
const ALIASES: Record<string, Field> = {
  id: 'id',
  eventid: 'id',
  externalid: 'id',
  type: 'type',
  eventtype: 'type',
  username: 'username',
  occurredat: 'occurredAt',
  amount: 'amount',
  currency: 'currency',
};
export const EVENTS_HEADER_HELP =
  'id,type,username,occurredAt[,amount][,currency][,attr.<name> or any other column: an attribute][,ref.<name>]';

export interface EventColumns {
  fields: Partial<Record<Field, number>> & Record<'id' | 'type' | 'username' | 'occurredAt', number>;
  attributes: Array<{ name: string; index: number }>;
  references: Array<{ name: string; index: number }>;
  width: number;
}

const squash = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');

/** Column positions from the header row, or the reason the header is not an events file's. */
export function eventColumnsOf(header: readonly string[]): EventColumns | string {
  const fields: Partial<Record<Field, number>> = {};
  const attributes: EventColumns['attributes'] = [];
  const references: EventColumns['references'] = [];
  const names = new Set<string>();
  for (const [index, raw] of header.entries()) {
    const name = raw.trim();
    if (name === '') return `column ${index + 1} of the header has no name; the header is ${EVENTS_HEADER_HELP}`;
    const prefixed = /^(attr|attribute|ref|reference)\.(.+)$/i.exec(name);
    const field = prefixed ? undefined : ALIASES[squash(name)];
    const key = field
      ? `field:${field}`
      : prefixed
        ? `${prefixed[1]!.toLowerCase().startsWith('ref') ? 'ref' : 'attr'}:${prefixed[2]!.trim()}`
        : `attr:${name}`;
    if (names.has(key)) return `the column ${name} is named twice in the header`;
    names.add(key);
    if (field) fields[field] = index;
    else if (prefixed?.[1]!.toLowerCase().startsWith('ref')) references.push({ name: prefixed[2]!.trim(), index });
    else attributes.push({ name: prefixed ? prefixed[2]!.trim() : name, index });
  }
  const missing = REQUIRED.filter((f) => fields[f] === undefined);
  if (missing.length > 0) return `missing column(s) ${missing.join(', ')}; the header is ${EVENTS_HEADER_HELP}`;
  if (attributes.length > PROGRAM_EVENT_MAX_ATTRIBUTES)
    return `${attributes.length} attribute columns: an event has at most ${PROGRAM_EVENT_MAX_ATTRIBUTES} attributes`;
  if (references.length > PROGRAM_EVENT_MAX_REFERENCES)
    return `${references.length} reference columns: an event has at most ${PROGRAM_EVENT_MAX_REFERENCES} references`;
  return { fields: fields as EventColumns['fields'], attributes, references, width: header.length };
}

/** Longest key the staging table keeps (imports/service.ts MAX_KEY). */
const MAX_STAGED_KEY = 255;

/**
 * A line's staged keys: the event's id (repeats within the file are found by it) and, for a
 * return, the id of the event it returns as the alternate key, so a preview finds which events
 * of the file a later return names (eventsPreviewReturns) without holding every event it computed.
 * The run's repeat check reads the alternate key of participants' files only (read() leaves it
 * out for events: two partial returns of one purchase are no repeat).
 */
export function eventKeysOf(fields: readonly string[], columns: EventColumns): { key: string | null; altKey: string | null } {
  const id = (fields[columns.fields.id] ?? '').trim();
  const key = id.length > 0 && id.length <= MAX_STAGED_KEY ? id : null;
  if ((fields[columns.fields.type] ?? '').trim() !== 'return') return { key, altKey: null };
  const reference = columns.references.find((r) => r.name === RETURN_ORIGINAL_REFERENCE);
  const original = reference === undefined ? '' : (fields[reference.index] ?? '').trim();
  return { key, altKey: original.length > 0 && original.length <= MAX_STAGED_KEY ? original : null };
}

/** One record as the body POST events would have had, checked with the API's words (events/bulk.ts checkEventLine). */
export function parseEventLine(fields: readonly string[], columns: EventColumns, line: number): EventLine | EventProblem {
  if (fields.length !== columns.width) return { line, reason: `${fields.length} fields where the header has ${columns.width}` };
  const cell = (index: number | undefined) => (index === undefined ? '' : (fields[index] ?? '').trim());
  const body: Record<string, unknown> = {
    id: cell(columns.fields.id),
    type: cell(columns.fields.type),
    username: cell(columns.fields.username),
    occurredAt: cell(columns.fields.occurredAt),
  };
  const amount = cell(columns.fields.amount);
  if (amount !== '') body.amount = amount;
  const currency = cell(columns.fields.currency);
  if (currency !== '') body.currency = currency;
  const mapOf = (list: EventColumns['attributes']) => {
    const map: Record<string, string> = {};
    for (const { name, index } of list) {
      const value = cell(index);
      if (value !== '') map[name] = value;
    }
    return Object.keys(map).length === 0 ? undefined : map;
  };
  const attributes = mapOf(columns.attributes);
  if (attributes) body.attributes = attributes;
  const references = mapOf(columns.references);
  if (references) body.references = references;
  const checked = checkEventLine(line, body);
  if ('event' in checked) return checked;
  // A refused line still names its event and participant where it can, for the preview's table.
  return { ...checked, ...(body.id ? { id: body.id as string } : {}), ...(body.username ? { username: body.username as string } : {}) };
}

/** Lines of the file whose outcome the preview keeps, in the file's order (all of them are in the totals). */
export const PREVIEW_SAMPLE_LINES = 200;

/** What an events preview carries from batch to batch: events/bulk.ts's counters and totals, and the sample. */
export interface EventsPreviewState extends EventsPreviewCarry {
  sample: ImportEventLine[];
  /** Whether the file was looked at for returns (eventsPreviewReturns) yet. */
  looked?: boolean;
}

export const eventsPreviewState = (): EventsPreviewState => ({
  counters: new Map(),
  rules: new Map(),
  budgetRanOut: new Set(),
  fileOrder: false,
  originals: new Map(),
  balances: new Map(),
  balanceMoves: new Map(),
  sample: [],
});

/**
 * Whether the staged file has returns (their originals are the lines' alternate keys, eventKeysOf),
 * and if so how the preview asks which of a batch's events a return of the file names: the
 * staging index, one read a batch. A file without returns costs one read in all.
 */
async function eventsPreviewReturns(db: Db, jobId: string): Promise<EventsPreviewState['returns']> {
  if (!(await anyAltKey(db, jobId))) return undefined;
  return { referenced: async (ids) => new Set((await firstLinesOf(db, jobId, 'alt_key', [...ids])).keys()) };
}

/** The preview's own part for an events file: the sample of lines, each rule's totals, the budgets the file runs out. */
export function eventsPreviewOf(state: EventsPreviewState): ImportEventsPreview {
  return {
    lines: state.sample,
    rules: [...state.rules.values()].sort((a, b) => b.points + b.pendingPoints - (a.points + a.pendingPoints)),
    budgetRanOut: [...state.budgetRanOut].sort(),
    ...(state.fileOrder || state.budgetRanOut.size > 0 ? { fileOrder: true } : {}),
  };
}

const countsOf = (outcome: EventsBatchOutcome) => ({
  added: outcome.added,
  unchanged: outcome.unchanged,
  problems: outcome.problems,
  unknownUsernames: outcome.unknownUsernames,
  pointsIn: outcome.pointsIn,
  pointsOut: outcome.pointsOut,
  pendingPoints: outcome.pendingPoints,
});

export async function previewEventsLines(db: Db, clientId: string, jobId: string, items: unknown[], state: EventsPreviewState) {
  if (!state.looked) {
    state.returns = await eventsPreviewReturns(db, jobId);
    state.looked = true;
  }
  const wanted = PREVIEW_SAMPLE_LINES - state.sample.length;
  const outcome = await previewEventsBatch(db, clientId, items as Array<EventLine | EventProblem>, state, wanted);
  state.sample.push(...outcome.outcomes.slice(0, Math.max(0, wanted)));
  return countsOf(outcome);
}

export async function runEventsLines(trx: Transaction<Database>, clientId: string, items: unknown[], runAt: Date, jobId: string) {
  return countsOf(await postEventsBatch(trx, clientId, items as Array<EventLine | EventProblem>, runAt, `import:${jobId}`));
}
