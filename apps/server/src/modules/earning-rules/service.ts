import { ErrorCode } from '@rewards/contract';
import {
  EarningEvent,
  EarningRule,
  earningRuleProblems,
  type EarningRuleView,
  type EarningsResult,
  type SimulationResult,
} from '@rewards/contract/earning-rules';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { readClient } from '../clients/service.ts';
// A module cycle (events/types.ts lists the rules): both sides only call functions at run time.
import { isRetiredEventType } from '../events/types.ts';
import { findParticipantByUsername, listProgramNames } from '../participants/service.ts';
import { roleIn } from '../staff/roles.ts';
import {
  capPeriodOf,
  computeEarnings,
  localDayOf,
  type CapUse,
  type EventFacts,
  type ParticipantFacts,
  type RuleInForce,
} from './engine.ts';
import {
  addToCounters,
  budgetsSpent,
  counterKeyText,
  existingRuleIds,
  insertRule,
  insertVersion,
  lockCounters,
  readCounters,
  ruleOfClient,
  rulesOfClient,
  takeNextVersion,
  versionsInForce,
  versionsByRef,
  versionsOfClient,
  type CounterKey,
  type VersionRow,
} from './store.ts';

/**
 * Earning rules (issue 32 §2, docs/decisions/095): a program manager's rules, versioned; the
 * versions in force at an event's time; what an event would earn (simulate, writing nothing);
 * and, for the postings of §4, the caps and budgets taken in the posting's transaction. One
 * service for the `rewards rules` command, the console and the program API.
 */

/** Who changes rules: the installation's operator (the command), or staff who must be an owner or the client's program manager. */
export type RuleEditor =
  { kind: 'operator'; name: string; origin: string } | { kind: 'staff'; name: string; origin: string; staffId: string; owner: boolean };

export interface ChangeOptions {
  /** When the new version begins (ISO 8601 with offset); default now. Never before now, nor before the rule's latest version. */
  effectiveFrom?: string | undefined;
  now?: Date;
}

export interface RuleChange {
  rule: EarningRuleView;
  /** True when the change would change nothing: no version was written. */
  unchanged: boolean;
  auditId: string | null;
}

const RULE_ID = /^[a-z0-9][a-z0-9-]{0,47}$/;

const ruleErrors = {
  invalid: (problems: readonly string[]) =>
    errors.validation(`The rule is not valid: ${problems.join('; ')}`, { problems: problems.join('; ') }),
  invalidEvent: (problems: readonly string[]) =>
    errors.validation(`The event is not valid: ${problems.join('; ')}`, { problems: problems.join('; ') }),
  notFound: (ruleId: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No earning rule "${ruleId}" in this client`, { ruleId }),
  retiredType: (type: string) =>
    errors.validation(`The rule is not valid: event: ${type} is retired; declare it again first (Programs → Earning rules → Event types)`, {
      problems: `event: ${type} is retired; declare it again first`,
    }),
  participantNotFound: (username: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No participant "${username}" in this client`, { username }),
};

/** The caller may change the client's rules: the operator, an owner, or the client's program manager (403 otherwise). */
async function authorize(db: Db, editor: RuleEditor, clientId: string): Promise<void> {
  if (editor.kind === 'operator') return;
  if (editor.owner) return;
  if ((await roleIn(db, editor.staffId, clientId)) !== 'program_manager') throw errors.forbidden();
}

function reasonOf(reason: string | undefined): string {
  const text = reason?.trim() ?? '';
  if (text.length < 3 || text.length > 500) throw errors.validation('A reason is required (3 to 500 characters), for the audit log');
  return text;
}

/** A rule as written (a file's JSON): its optional "id", and the rule checked by the contract with clear problems. */
export function parseRuleInput(input: unknown): { id: string | undefined; rule: EarningRule } {
  let id: string | undefined;
  let body = input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input) && 'id' in input) {
    const { id: given, ...rest } = input as Record<string, unknown>;
    if (typeof given !== 'string' || !RULE_ID.test(given))
      throw ruleErrors.invalid(['id: a rule id is lower case letters, digits and -, at most 48, starting with a letter or digit']);
    id = given;
    body = rest;
  }
  const parsed = EarningRule.safeParse(body);
  if (!parsed.success) throw ruleErrors.invalid(earningRuleProblems(parsed.error));
  return { id, rule: parsed.data };
}

/** The id a new rule gets from its name: "Store purchases" → store-purchases. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'rule' : slug;
}

/** How far ahead of this process's clock a version's start may be and still count as "now" (another process's clock, a change just made). */
const CLOCK_SLACK_MS = 5_000;

function effectiveFromOf(options: ChangeOptions, now: Date, notBefore: string | undefined): string {
  const at = now.toISOString();
  if (options.effectiveFrom === undefined) {
    if (notBefore !== undefined && notBefore > at) {
      // A concurrent change that took the lock first, or another process's clock a little ahead: just after it.
      if (Date.parse(notBefore) - now.getTime() <= CLOCK_SLACK_MS) return notBefore;
      // A version scheduled for later: "now" would be overtaken by it, which nobody means; say so.
      throw errors.validation(`The rule has a version beginning ${notBefore}: give this change a start at that time or later`);
    }
    return at;
  }
  const given = new Date(options.effectiveFrom);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(options.effectiveFrom) || Number.isNaN(given.getTime()))
    throw errors.validation('The start of the version is an ISO 8601 time with its offset (2026-12-01T00:00:00+01:00)');
  const from = given.toISOString();
  // Never back in time: what earlier events earned stays what it was.
  if (from < at) throw errors.validation('A version begins now or later, never in the past: earlier events keep the rules they had');
  if (notBefore !== undefined && from < notBefore)
    throw errors.validation(`A version begins no earlier than the rule's latest version (${notBefore})`);
  return from;
}

/** Promotions name rules of the client; a rule does not multiply itself. */
async function checkPromotionTargets(db: Kysely<Database>, clientId: string, ruleId: string | undefined, rule: EarningRule): Promise<void> {
  const named = rule.earn.rules;
  if (named === undefined) return;
  if (ruleId !== undefined && named.includes(ruleId)) throw ruleErrors.invalid(['earn.rules: a promotion does not multiply itself']);
  const found = await existingRuleIds(db, clientId, named);
  const missing = named.filter((id) => !found.has(id));
  if (missing.length > 0) throw ruleErrors.invalid([`earn.rules: no rule ${missing.join(', ')} in this client`]);
}

/**
 * Rules parsed once per process, keyed by the stored JSON itself: the same text is the same rule
 * in any database, so an entry is never stale (a version row never changes anyway); out by size.
 * The engine's own per-rule memo then holds for the life of the entry.
 */
const definitions = new LRUCache<string, EarningRule>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (_rule, text) => text.length + 64 });
/** Shared between callers: nobody may change it under another. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function parseDefinition(row: VersionRow): EarningRule {
  let rule = definitions.get(row.definition);
  if (rule === undefined) {
    rule = deepFreeze(EarningRule.parse(JSON.parse(row.definition)));
    definitions.set(row.definition, rule);
  }
  return rule;
}

/** The rule's fields a new version changes, for the audit log. */
function changedFields(before: EarningRule, after: EarningRule): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof EarningRule>;
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

async function audit(
  trx: Kysely<Database>,
  editor: RuleEditor,
  clientId: string,
  action: string,
  ruleId: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<string> {
  const actorKind: AuditActorKind = editor.kind;
  return recordAudit(trx, { clientId, actor: editor.name, actorKind, action, subject: ruleId, details, origin: editor.origin }, now);
}

async function requireClientOf(db: Db, clientId: string) {
  const client = await readClient(db, clientId);
  if (!client) throw errors.notFound();
  return client;
}

/** Adds a rule (version 1), audited with the reason. Its id is the file's, else a slug of its name made unique in the client. */
export async function createRule(
  db: Db,
  editor: RuleEditor,
  clientId: string,
  input: unknown,
  reason: string | undefined,
  options: ChangeOptions = {},
): Promise<RuleChange> {
  await authorize(db, editor, clientId);
  const why = reasonOf(reason);
  const { id: given, rule } = parseRuleInput(input);
  await requireClientOf(db, clientId);
  if (await isRetiredEventType(db, clientId, rule.event)) throw ruleErrors.retiredType(rule.event);
  await checkPromotionTargets(db, clientId, given, rule);
  const now = options.now ?? new Date();
  const effectiveFrom = effectiveFromOf(options, now, undefined);
  const at = now.toISOString();
  const { id: createdId, auditId } = await db.transaction().execute(async (trx) => {
    let id = given ?? slugOf(rule.name);
    for (let n = 2; ; n += 1) {
      const row = {
        client_id: clientId,
        id,
        event_type: rule.event,
        latest_version: 1,
        created_at: at,
        created_by: editor.name,
        updated_at: at,
      };
      if (await insertRule(trx, row)) break;
      if (given !== undefined) throw errors.validation(`The client has a rule "${given}" already: update it, or give another id`);
      if (n > 100) throw errors.validation('Too many rules with this name: give the rule an "id"');
      id = `${slugOf(rule.name)}-${n}`;
    }
    await insertVersion(trx, {
      client_id: clientId,
      rule_id: id,
      version: 1,
      event_type: rule.event,
      effective_from: effectiveFrom,
      enabled: 1,
      definition: JSON.stringify(rule),
      reason: why,
      changed_by: editor.name,
      changed_at: at,
    });
    const details = { version: 1, name: rule.name, event: rule.event, effectiveFrom, reason: why };
    return { id, auditId: await audit(trx, editor, clientId, 'earning-rules.create', id, details, now) };
  });
  return { rule: await getRule(db, clientId, createdId, now), unchanged: false, auditId };
}

/** The rule's latest version, or 404. */
async function latestOf(db: Kysely<Database>, clientId: string, ruleId: string): Promise<VersionRow> {
  const versions = await versionsOfClient(db, clientId, ruleId);
  const latest = versions.at(-1);
  if (!latest) throw ruleErrors.notFound(ruleId);
  return latest;
}

/** Writes version n+1 of a rule (under the rule's row lock), audited; nothing when it would change nothing. */
async function newVersion(
  db: Db,
  editor: RuleEditor,
  clientId: string,
  ruleId: string,
  change: (
    latest: VersionRow,
    rule: EarningRule,
  ) => { rule: EarningRule; enabled: boolean; action: string; details: Record<string, unknown> } | undefined,
  reason: string,
  options: ChangeOptions,
): Promise<RuleChange> {
  let now = options.now ?? new Date();
  const auditId = await db
    .transaction()
    .execute(async (trx) => {
      const version = await takeNextVersion(trx, clientId, ruleId, now.toISOString());
      if (version === undefined) throw ruleErrors.notFound(ruleId);
      // The time of the change is once the rule's lock is held: after any change that held it before.
      now = options.now ?? new Date();
      const at = now.toISOString();
      const latest = await latestOf(trx, clientId, ruleId);
      const next = change(latest, parseDefinition(latest));
      // Nothing to change: the transaction is rolled back, so the version number is not spent.
      if (next === undefined) throw new NothingToChange();
      const effectiveFrom = effectiveFromOf(options, now, latest.effective_from);
      await insertVersion(trx, {
        client_id: clientId,
        rule_id: ruleId,
        version,
        event_type: latest.event_type,
        effective_from: effectiveFrom,
        enabled: next.enabled ? 1 : 0,
        definition: JSON.stringify(next.rule),
        reason,
        changed_by: editor.name,
        changed_at: at,
      });
      return audit(trx, editor, clientId, next.action, ruleId, { version, effectiveFrom, ...next.details, reason }, now);
    })
    .catch((error: unknown) => {
      if (error instanceof NothingToChange) return null;
      throw error;
    });
  return { rule: await getRule(db, clientId, ruleId, now), unchanged: auditId === null, auditId };
}
class NothingToChange extends Error {}

/** A new version of the rule from the file: the event type stays; a disabled rule is enabled first. */
export async function updateRule(
  db: Db,
  editor: RuleEditor,
  clientId: string,
  ruleId: string,
  input: unknown,
  reason: string | undefined,
  options: ChangeOptions = {},
): Promise<RuleChange> {
  await authorize(db, editor, clientId);
  const why = reasonOf(reason);
  const { id: given, rule } = parseRuleInput(input);
  if (given !== undefined && given !== ruleId) throw errors.validation(`The file is rule "${given}", not "${ruleId}"`);
  const existing = await ruleOfClient(db, clientId, ruleId);
  if (!existing) throw ruleErrors.notFound(ruleId);
  if (rule.event !== existing.event_type)
    throw ruleErrors.invalid([`event: the rule earns on ${existing.event_type} for its whole life; make a new rule for ${rule.event}`]);
  await checkPromotionTargets(db, clientId, ruleId, rule);
  return newVersion(
    db,
    editor,
    clientId,
    ruleId,
    (latest, before) => {
      if (latest.enabled !== 1)
        throw errors.validation(`The rule "${ruleId}" is disabled from ${latest.effective_from}: enable it first (rewards rules enable)`);
      const changed = changedFields(before, rule);
      return changed.length === 0
        ? undefined
        : { rule, enabled: true, action: 'earning-rules.update', details: { name: rule.name, changed } };
    },
    why,
    options,
  );
}

/** Stops (or starts again) the rule from now, or from effectiveFrom: a new version with the same definition. */
export async function setRuleEnabled(
  db: Db,
  editor: RuleEditor,
  clientId: string,
  ruleId: string,
  enabled: boolean,
  reason: string | undefined,
  options: ChangeOptions = {},
): Promise<RuleChange> {
  await authorize(db, editor, clientId);
  const why = reasonOf(reason);
  if (enabled) {
    const existing = await ruleOfClient(db, clientId, ruleId);
    if (!existing) throw ruleErrors.notFound(ruleId);
    if (await isRetiredEventType(db, clientId, existing.event_type)) throw ruleErrors.retiredType(existing.event_type);
  }
  return newVersion(
    db,
    editor,
    clientId,
    ruleId,
    (latest, rule) =>
      (latest.enabled === 1) === enabled
        ? undefined
        : { rule, enabled, action: enabled ? 'earning-rules.enable' : 'earning-rules.disable', details: { name: rule.name } },
    why,
    options,
  );
}

function viewOf(
  rule: { id: string; event_type: string; created_at: string; created_by: string; updated_at: string },
  versions: readonly VersionRow[],
  budgetSpent: number,
  now: string,
): EarningRuleView {
  const latest = versions.at(-1)!;
  const definition = parseDefinition(latest);
  const inForce = inForceOf(versions, now);
  const budget = definition.caps.budget;
  return {
    id: rule.id,
    event: rule.event_type,
    version: latest.version,
    effectiveFrom: latest.effective_from,
    enabled: latest.enabled === 1,
    rule: definition,
    inForce: inForce ? { version: inForce.version, enabled: inForce.enabled === 1 } : null,
    budget: budget ? { points: budget.points, used: budgetSpent, left: Math.max(0, budget.points - budgetSpent) } : null,
    createdAt: rule.created_at,
    createdBy: rule.created_by,
    updatedAt: rule.updated_at,
  };
}

/** Of one rule's versions, the one in force at `at`: the latest begun by then (the higher version of two begun at once). */
function inForceOf(versions: readonly VersionRow[], at: string): VersionRow | undefined {
  let found: VersionRow | undefined;
  for (const v of versions) {
    if (v.effective_from > at) continue;
    if (!found || v.effective_from > found.effective_from || (v.effective_from === found.effective_from && v.version > found.version))
      found = v;
  }
  return found;
}

export async function getRule(db: Db, clientId: string, ruleId: string, now: Date = new Date()): Promise<EarningRuleView> {
  const rule = await ruleOfClient(db, clientId, ruleId);
  if (!rule) throw ruleErrors.notFound(ruleId);
  const versions = await versionsOfClient(db, clientId, ruleId);
  return viewOf(rule, versions, (await budgetsSpent(db, clientId)).get(ruleId) ?? 0, now.toISOString());
}

/** One version of a rule as `rewards rules show` and the console's history list it. */
export interface RuleVersionView {
  version: number;
  effectiveFrom: string;
  enabled: boolean;
  changedBy: string;
  changedAt: string;
  reason: string;
  /** The rule's fields this version changed from the one before (all of them for version 1). */
  changed: string[];
  rule: EarningRule;
}

/** Every version of a rule, oldest first, with who changed what and why: which rules an event of any time was computed with. */
export async function ruleHistory(db: Db, clientId: string, ruleId: string): Promise<RuleVersionView[]> {
  const versions = await versionsOfClient(db, clientId, ruleId);
  if (versions.length === 0) throw ruleErrors.notFound(ruleId);
  let before: EarningRule | undefined;
  return versions.map((row) => {
    const rule = parseDefinition(row);
    const changed = before === undefined ? Object.keys(rule).sort() : changedFields(before, rule);
    before = rule;
    return {
      version: row.version,
      effectiveFrom: row.effective_from,
      enabled: row.enabled === 1,
      changedBy: row.changed_by,
      changedAt: row.changed_at,
      reason: row.reason,
      changed,
      rule,
    };
  });
}

/** The client's rules, each as its latest version with the one in force now and what is left of its budget. */
export async function listRules(db: Db, clientId: string, now: Date = new Date()): Promise<EarningRuleView[]> {
  const [rules, versions, spent] = await Promise.all([
    rulesOfClient(db, clientId),
    versionsOfClient(db, clientId),
    budgetsSpent(db, clientId),
  ]);
  const byRule = Map.groupBy(versions, (v) => v.rule_id);
  return rules.flatMap((rule) => {
    const own = byRule.get(rule.id);
    return own ? [viewOf(rule, own, spent.get(rule.id) ?? 0, now.toISOString())] : [];
  });
}

/** The enabled versions in force at `at` of the client's rules of one event type. */
export async function rulesInForce(db: Kysely<Database>, clientId: string, eventType: string, at: string): Promise<RuleInForce[]> {
  const rows = await versionsInForce(db, clientId, eventType, new Date(at).toISOString());
  return rows.filter((row) => row.enabled === 1).map((row) => ({ id: row.rule_id, version: row.version, rule: parseDefinition(row) }));
}

/** The counters an event of this participant counts in: each capped rule's period, and each budget. */
function counterKeysOf(
  rules: readonly RuleInForce[],
  participantId: string | undefined,
  localDay: string,
): Array<CounterKey & { use: keyof CapUse }> {
  return rules.flatMap((r) => {
    const period = capPeriodOf(r.rule, localDay);
    return [
      ...(period !== null && participantId !== undefined ? [{ ruleId: r.id, participantId, period, use: 'participant' as const }] : []),
      ...(r.rule.caps.budget ? [{ ruleId: r.id, participantId: '', period: 'budget', use: 'budget' as const }] : []),
    ];
  });
}

function capsUsedOf(keys: ReadonlyArray<CounterKey & { use: keyof CapUse }>, held: ReadonlyMap<string, number>): Map<string, CapUse> {
  const used = new Map<string, CapUse>();
  for (const key of keys) used.set(key.ruleId, { ...used.get(key.ruleId), [key.use]: held.get(counterKeyText(key)) ?? 0 });
  return used;
}

/**
 * What an event would earn, rule by rule, writing nothing: the rules in force at its occurredAt
 * (now if not given), the participant's programs and status and what the capped rules have given
 * them (a simulation without a username: no programs, active, nothing given yet), in the client's
 * time zone. For `rewards rules simulate`, the console and POST /rules/simulate.
 */
export async function simulate(db: Db, clientId: string, input: unknown, now: Date = new Date()): Promise<SimulationResult> {
  const parsed = EarningEvent.safeParse(input);
  if (!parsed.success) throw ruleErrors.invalidEvent(earningRuleProblems(parsed.error));
  const event = parsed.data;
  if (event.type === 'return')
    throw errors.validation('A return earns nothing: it takes back what its original event earned. Simulate that event.');
  const client = await requireClientOf(db, clientId);
  const occurredAt = event.occurredAt === undefined ? now.toISOString() : new Date(event.occurredAt).toISOString();
  let participantId: string | undefined;
  let participant: ParticipantFacts = { programs: [], status: 'active' };
  if (event.username !== undefined) {
    const found = await findParticipantByUsername(db, clientId, event.username);
    if (!found) throw ruleErrors.participantNotFound(event.username);
    participantId = found.id;
    participant = { programs: await listProgramNames(db, clientId, found.id), status: found.status };
  }
  const rules = await rulesInForce(db, clientId, event.type, occurredAt);
  const keys = counterKeysOf(rules, participantId, localDayOf(occurredAt, client.time_zone).day);
  const used = capsUsedOf(keys, await readCounters(db, clientId, keys));
  const facts: EventFacts = { type: event.type, occurredAt, amount: event.amount, currency: event.currency, attributes: event.attributes };
  const result = computeEarnings(facts, participant, rules, used, client.time_zone);
  return { ...result, event: { type: event.type, occurredAt, username: event.username ?? null } };
}

export interface EarningPosting {
  clientId: string;
  participantId: string;
  participant: ParticipantFacts;
  event: EventFacts;
  timeZone: string;
  now?: Date;
}

/**
 * What an event earns, with its caps and budgets taken, in the posting's transaction (§4): the
 * counters it counts in are locked (lockCounters), the engine computes from what they hold, and
 * what each line gave is added before the transaction commits. However many events of a
 * participant post at once, a cap is reached exactly and never passed.
 */
export async function earnAndTakeCaps(trx: Kysely<Database>, posting: EarningPosting): Promise<EarningsResult> {
  const at = (posting.now ?? new Date()).toISOString();
  const rules = await rulesInForce(trx, posting.clientId, posting.event.type, posting.event.occurredAt);
  const keys = counterKeysOf(rules, posting.participantId, localDayOf(posting.event.occurredAt, posting.timeZone).day);
  const held = await lockCounters(trx, posting.clientId, keys, at);
  const result = computeEarnings(posting.event, posting.participant, rules, capsUsedOf(keys, held), posting.timeZone);
  const given = new Map(result.lines.map((line) => [line.ruleId, line.points]));
  await addToCounters(
    trx,
    posting.clientId,
    keys.map((key) => ({ ...key, points: given.get(key.ruleId) ?? 0 })),
    at,
  );
  return result;
}

/** A rule version named by an event's line. */
export interface RuleVersionRef {
  ruleId: string;
  version: number;
}

const refText = (ref: RuleVersionRef) => `${ref.ruleId}@${ref.version}`;

/**
 * The texts of the rule versions named (locale → words), keyed `ruleId@version`: the words an
 * entry for a line of theirs says ("2 points per euro in store"), as the event was computed with them.
 */
export async function ruleVersionTexts(
  db: Kysely<Database>,
  clientId: string,
  refs: readonly RuleVersionRef[],
): Promise<Map<string, Readonly<Record<string, string>>>> {
  const rows = await versionsByRef(db, clientId, refs);
  return new Map(rows.map((row) => [refText({ ruleId: row.rule_id, version: Number(row.version) }), parseDefinition(row).text]));
}

export const ruleVersionKey = refText;

export interface CapsOfEvent {
  clientId: string;
  participantId: string;
  /** The original event's occurredAt: its cap periods are the ones given back to. */
  occurredAt: string;
  timeZone: string;
  /** The rule versions of the event's lines. */
  lines: readonly RuleVersionRef[];
  now?: Date;
}

/** The counters of an event's lines, locked: give back to them what a return took back of each line. */
export interface LockedCaps {
  giveBack(taken: ReadonlyArray<RuleVersionRef & { points: number }>): Promise<void>;
}

/**
 * Locks the caps and budgets an event's lines counted in (a rule's participant cap in the event's
 * own period, its budget), in the order the postings lock them, for a return to give back what it
 * took back (issue 32 §3, decision 098): a returned purchase frees the participant's monthly cap
 * and the rule's budget, as if it had not earned that much. Called before the return locks the
 * participant's row, as a posting does (counters, then the balance): no deadlock between them.
 * Never below zero.
 */
export async function lockCapsOfEvent(trx: Kysely<Database>, event: CapsOfEvent): Promise<LockedCaps> {
  const at = (event.now ?? new Date()).toISOString();
  const versions = new Map(
    (await versionsByRef(trx, event.clientId, event.lines)).map((row) => [
      refText({ ruleId: row.rule_id, version: Number(row.version) }),
      parseDefinition(row),
    ]),
  );
  const day = localDayOf(event.occurredAt, event.timeZone).day;
  const keysOf = (line: RuleVersionRef): CounterKey[] => {
    const rule = versions.get(refText(line));
    if (!rule) return [];
    const period = capPeriodOf(rule, day);
    return [
      ...(period !== null ? [{ ruleId: line.ruleId, participantId: event.participantId, period }] : []),
      ...(rule.caps.budget ? [{ ruleId: line.ruleId, participantId: '', period: 'budget' }] : []),
    ];
  };
  const keys = event.lines.flatMap(keysOf);
  const held = keys.length === 0 ? new Map<string, number>() : await lockCounters(trx, event.clientId, keys, at);
  return {
    async giveBack(taken) {
      const takes = taken
        .filter((line) => line.points > 0)
        .flatMap((line) =>
          keysOf(line).map((key) => {
            const points = Math.min(line.points, held.get(counterKeyText(key)) ?? 0);
            held.set(counterKeyText(key), (held.get(counterKeyText(key)) ?? 0) - points);
            return { ...key, points: -points };
          }),
        );
      if (takes.length > 0) await addToCounters(trx, event.clientId, takes, at);
    },
  };
}
