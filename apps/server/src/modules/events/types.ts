import { ErrorCode } from '@rewards/contract';
import { DeclaredEventTypeName, type EventTypeView } from '@rewards/contract/console-event-types';
import { earningRuleProblems, type EarningRuleView } from '@rewards/contract/earning-rules';
import { BUILT_IN_EVENT_TYPES } from '@rewards/contract/events';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import { readClient } from '../clients/service.ts';
import { listRules, type RuleEditor } from '../earning-rules/service.ts';
import { roleIn } from '../staff/roles.ts';
import type { ClientEventTypesTable } from './tables.ts';
import { eventTypesOfClient, findEventType, insertEventType, redeclareEventType, retireEventTypeRow } from './types-store.ts';

/**
 * A client's event types (issue 32 §1, docs/decisions/100): `purchase` and `return` built in;
 * others declared by the program manager with what they mean, or earned on by an earning rule
 * (a rule declares its type, decision 097, so rules written before declarations existed keep
 * working); retired with a reason, after which events of the type are refused until it is
 * declared again. One service for the console and `rewards events types`.
 */

/** Who declares and retires: the operator (the command), an owner, or the client's program manager (as for rules). */
export type EventTypeEditor = RuleEditor;

const clip = (value: string) => (value.length > 64 ? `${value.slice(0, 64)}…` : value);
const isBuiltIn = (name: string) => (BUILT_IN_EVENT_TYPES as readonly string[]).includes(name);

export const eventTypeErrors = {
  invalid: (problems: readonly string[]) =>
    errors.validation(`The event type is not valid: ${problems.join('; ')}; nothing was changed`, { problems: problems.join('; ') }),
  builtIn: (name: string, what: 'declared' | 'retired') =>
    errors.validation(`${name} is built in: every program takes it, and it cannot be ${what}`),
  declaredAlready: (row: ClientEventTypesTable) =>
    errors.validation(
      `${row.name} is declared already${row.declared_at ? ` (${row.declared_at.slice(0, 10)}, by ${row.declared_by ?? 'someone'})` : ''}; nothing was changed`,
    ),
  notFound: (name: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No event type "${clip(name)}" in this program`, { name: clip(name) }),
  retiredAlready: (row: ClientEventTypesTable) =>
    errors.validation(`${row.name} was retired already (${(row.retired_at ?? '').slice(0, 10)}, by ${row.retired_by ?? 'someone'})`),
  inUse: (name: string, rules: readonly string[]) =>
    errors.validation(
      `${name} is earned on by the enabled rule${rules.length > 1 ? 's' : ''} ${rules.join(', ')}: disable ${rules.length > 1 ? 'them' : 'it'} first (a rule's page, or rewards rules disable), then retire the type`,
    ),
};

async function authorize(db: Db, editor: EventTypeEditor, clientId: string): Promise<void> {
  if (editor.kind === 'operator' || editor.owner) return;
  if ((await roleIn(db, editor.staffId, clientId)) !== 'program_manager') throw errors.forbidden();
}

function reasonOf(reason: string | undefined): string {
  const text = reason?.trim() ?? '';
  if (text.length < 3 || text.length > 500) throw errors.validation('A reason is required (3 to 500 characters), for the audit log');
  return text;
}

function nameOf(input: unknown): string {
  const parsed = DeclaredEventTypeName.safeParse(input);
  if (!parsed.success) throw eventTypeErrors.invalid(earningRuleProblems(parsed.error).map((p) => `name: ${p}`));
  return parsed.data;
}

function descriptionOf(input: string | undefined): string {
  const text = (input ?? '').trim();
  if (text.length > 500) throw eventTypeErrors.invalid(['description: at most 500 characters']);
  if (!text.isWellFormed() || /\p{Cc}/u.test(text)) throw eventTypeErrors.invalid(['description: control characters']);
  return text;
}

async function requireClientOf(db: Db, clientId: string): Promise<void> {
  if (!(await readClient(db, clientId))) throw errors.notFound();
}

function viewOf(name: string, row: ClientEventTypesTable | undefined, rules: readonly EarningRuleView[]): EventTypeView {
  const ruleIds = rules.filter((r) => r.event === name).map((r) => r.id);
  if (isBuiltIn(name))
    return { name, origin: 'built-in', description: '', declaredAt: null, declaredBy: null, retired: null, rules: ruleIds };
  return {
    name,
    origin: row?.declared_at ? 'declared' : 'rule',
    description: row?.description ?? '',
    declaredAt: row?.declared_at ?? null,
    declaredBy: row?.declared_by ?? null,
    retired: row?.retired_at != null ? { at: row.retired_at, by: row.retired_by ?? '', reason: row.retired_reason ?? '' } : null,
    rules: ruleIds,
  };
}

/** The client's event types: the built-in ones, then every declared or earned-on type by name, each with the rules that earn on it. */
export async function listEventTypes(db: Db, clientId: string): Promise<EventTypeView[]> {
  await requireClientOf(db, clientId);
  const [rows, rules] = await Promise.all([eventTypesOfClient(db, clientId), listRules(db, clientId)]);
  const byName = new Map(rows.map((row) => [row.name, row]));
  const names = [...new Set([...byName.keys(), ...rules.map((r) => r.event)])].filter((name) => !isBuiltIn(name)).sort();
  return [...BUILT_IN_EVENT_TYPES, ...names].map((name) => viewOf(name, byName.get(name), rules));
}

/** One type as listEventTypes shows it, or 404. */
export async function getEventType(db: Db, clientId: string, name: string): Promise<EventTypeView> {
  const found = (await listEventTypes(db, clientId)).find((t) => t.name === name);
  if (!found) throw eventTypeErrors.notFound(name);
  return found;
}

async function audit(
  trx: Kysely<Database>,
  editor: EventTypeEditor,
  clientId: string,
  action: string,
  name: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<string> {
  return recordAudit(
    trx,
    { clientId, actor: editor.name, actorKind: editor.kind, action, subject: name, details, origin: editor.origin },
    now,
  );
}

export interface EventTypeChange {
  type: EventTypeView;
  auditId: string;
}

/**
 * Declares a type (a name and what it means), audited. A retired type may be declared again (its
 * retirement cleared); a type in use already is refused, as is a built-in one.
 */
export async function declareEventType(
  db: Db,
  editor: EventTypeEditor,
  clientId: string,
  input: { name: unknown; description?: string | undefined },
  now: Date = new Date(),
): Promise<EventTypeChange> {
  await authorize(db, editor, clientId);
  const name = nameOf(input.name);
  const description = descriptionOf(input.description);
  if (isBuiltIn(name)) throw eventTypeErrors.builtIn(name, 'declared');
  await requireClientOf(db, clientId);
  const at = now.toISOString();
  const auditId = await db.transaction().execute(async (trx) => {
    const row = {
      client_id: clientId,
      name,
      description,
      declared_at: at,
      declared_by: editor.name,
      retired_at: null,
      retired_by: null,
      retired_reason: null,
    };
    let again = false;
    if (!(await insertEventType(trx, row))) {
      // A row: declared already, retired (declared again here), or only retired after rules had earned on it.
      again = await redeclareEventType(trx, clientId, name, { description, at, by: editor.name });
      if (!again) {
        const existing = await findEventType(trx, clientId, name);
        throw existing ? eventTypeErrors.declaredAlready(existing) : eventTypeErrors.notFound(name);
      }
    }
    return audit(trx, editor, clientId, 'event-types.declare', name, { description, ...(again ? { again: true } : {}) }, now);
  });
  return { type: await getEventType(db, clientId, name), auditId };
}

/**
 * Retires a declared type (or one only rules earned on), with a reason, audited: events of it are
 * refused from then on. Refused while a rule enabled in its latest version earns on it (disable
 * the rule first: the type would otherwise earn and be refused at once), for a built-in type, and
 * for one retired already.
 */
export async function retireEventType(
  db: Db,
  editor: EventTypeEditor,
  clientId: string,
  nameInput: string,
  reason: string | undefined,
  now: Date = new Date(),
): Promise<EventTypeChange> {
  await authorize(db, editor, clientId);
  const why = reasonOf(reason);
  const name = nameInput.trim();
  if (isBuiltIn(name)) throw eventTypeErrors.builtIn(name, 'retired');
  await requireClientOf(db, clientId);
  const rules = (await listRules(db, clientId, now)).filter((r) => r.event === name);
  const enabled = rules.filter((r) => r.enabled).map((r) => r.id);
  if (enabled.length > 0) throw eventTypeErrors.inUse(name, enabled);
  const at = now.toISOString();
  const auditId = await db.transaction().execute(async (trx) => {
    const change = { at, by: editor.name, reason: why };
    if (!(await retireEventTypeRow(trx, clientId, name, change))) {
      const existing = await findEventType(trx, clientId, name);
      if (existing) throw eventTypeErrors.retiredAlready(existing);
      if (rules.length === 0) throw eventTypeErrors.notFound(name);
      // A type only rules declared: its row is made retired.
      const row = {
        client_id: clientId,
        name,
        description: '',
        declared_at: null,
        declared_by: null,
        retired_at: at,
        retired_by: editor.name,
        retired_reason: why,
      };
      if (!(await insertEventType(trx, row))) throw eventTypeErrors.retiredAlready((await findEventType(trx, clientId, name)) ?? row);
    }
    return audit(trx, editor, clientId, 'event-types.retire', name, { reason: why, rules: rules.map((r) => r.id) }, now);
  });
  return { type: await getEventType(db, clientId, name), auditId };
}

/** Retired and not declared again: no rule is made or enabled on it (decision 100). */
export async function isRetiredEventType(db: Kysely<Database>, clientId: string, type: string): Promise<boolean> {
  return (await findEventType(db, clientId, type))?.retired_at != null;
}

/**
 * The events' check (decision 097, read only when no rule of the type is in force at the event's
 * time): built in; declared and not retired; or, never declared nor retired, the type of one of
 * the client's earning rules (any version: a rule declares its type).
 */
export async function isClientEventType(db: Kysely<Database>, clientId: string, type: string): Promise<boolean> {
  if (isBuiltIn(type)) return true;
  const row = await findEventType(db, clientId, type);
  if (row) return row.retired_at === null;
  return (await listRules(db, clientId)).some((rule) => rule.event === type);
}
