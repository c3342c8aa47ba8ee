import { EarningRule } from '@rewards/contract/earning-rules';
import { CompiledQuery, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import { capPeriodOf, type CapUse, type RuleInForce } from './engine.ts';
import { inLockOrder, keyText } from './store.ts';

/**
 * The earning rules for a batch of events (an events import's job, decision 099): the rules'
 * versions read once per batch and picked in memory per event, and the caps' and budgets'
 * counters of a whole batch read (locked, on PostgreSQL) in a few statements and written back
 * in one, in the batch's transaction. The same counters, periods and lock order as the single
 * posting's earnAndTakeCaps (service.ts, decision 095): a batch and the program API's events
 * take the same caps exactly, whichever comes first.
 */

type Tx = Kysely<Database>;

/** One counter: a participant's use of a rule in a cap period, or (participant '' and period 'budget') the rule's budget. */
export interface BatchCounterKey {
  ruleId: string;
  participantId: string;
  period: string;
  use: keyof CapUse;
  /** counterText of the key, made once. */
  text: string;
}

/** The same text as store.ts's counterKeyText: rule, participant, period. */
export const counterText = keyText;

/** Rules parsed once per process, keyed by the stored JSON (a version never changes). */
const parsed = new LRUCache<string, EarningRule>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (_rule, text) => text.length + 64 });

interface TimelineVersion {
  effectiveFrom: string;
  version: number;
  enabled: boolean;
  entry: RuleInForce;
}

/** The client's rule versions, to pick the ones in force at any event's time without a query. */
export interface RulesTimeline {
  /** The enabled versions in force at `at` (ISO UTC) of the rules of this event type. */
  inForce(type: string, at: string): RuleInForce[];
  /** One version of a rule (a return gives back to the counters of the versions its original earned by), undefined if the client has none such. */
  version(ruleId: string, version: number): RuleInForce | undefined;
}

/** Reads every version of the client's rules (a few dozen rows): one query a batch, so a change made during a long run counts from its start. */
export async function rulesTimeline(db: Tx, clientId: string): Promise<RulesTimeline> {
  const rows = await db
    .selectFrom('earning_rule_versions')
    .select(['rule_id', 'version', 'event_type', 'effective_from', 'enabled', 'definition'])
    .where('client_id', '=', clientId)
    .orderBy('rule_id')
    .orderBy('version')
    .execute();
  const byType = new Map<string, Map<string, TimelineVersion[]>>();
  const byVersion = new Map<string, RuleInForce>();
  for (const row of rows) {
    let rule = parsed.get(row.definition);
    if (rule === undefined) {
      rule = Object.freeze(EarningRule.parse(JSON.parse(row.definition))) as EarningRule;
      parsed.set(row.definition, rule);
    }
    const rules = byType.get(row.event_type) ?? new Map<string, TimelineVersion[]>();
    byType.set(row.event_type, rules);
    const versions = rules.get(row.rule_id) ?? [];
    rules.set(row.rule_id, versions);
    const entry = { id: row.rule_id, version: Number(row.version), rule };
    versions.push({ effectiveFrom: row.effective_from, version: Number(row.version), enabled: Number(row.enabled) === 1, entry });
    byVersion.set(`${row.rule_id}\u0000${entry.version}`, entry);
  }
  return {
    inForce(type, at) {
      const out: RuleInForce[] = [];
      for (const versions of byType.get(type)?.values() ?? []) {
        // The latest begun by then; of two begun at once, the higher version (service.ts rulesInForce).
        let found: TimelineVersion | undefined;
        for (const v of versions) {
          if (v.effectiveFrom > at) continue;
          if (!found || v.effectiveFrom > found.effectiveFrom || (v.effectiveFrom === found.effectiveFrom && v.version > found.version))
            found = v;
        }
        if (found?.enabled) out.push(found.entry);
      }
      return out;
    },
    version: (ruleId, version) => byVersion.get(`${ruleId}\u0000${version}`),
  };
}

/** The counters an event of this participant counts in (service.ts counterKeysOf): each capped rule's period, each budget. */
export function counterKeysFor(rules: readonly RuleInForce[], participantId: string, localDay: string): BatchCounterKey[] {
  const keys: BatchCounterKey[] = [];
  for (const r of rules) {
    const period = capPeriodOf(r.rule, localDay);
    if (period !== null)
      keys.push({ ruleId: r.id, participantId, period, use: 'participant', text: counterText({ ruleId: r.id, participantId, period }) });
    if (r.rule.caps.budget)
      keys.push({
        ruleId: r.id,
        participantId: '',
        period: 'budget',
        use: 'budget',
        text: counterText({ ruleId: r.id, participantId: '', period: 'budget' }),
      });
  }
  return keys;
}

/** What the engine reads of the counters for one event. */
export function capsUsedFrom(keys: readonly BatchCounterKey[], held: ReadonlyMap<string, number>): Map<string, CapUse> {
  const used = new Map<string, CapUse>();
  for (const key of keys) {
    let use = used.get(key.ruleId);
    if (!use) {
      use = {};
      used.set(key.ruleId, use);
    }
    use[key.use] = held.get(key.text) ?? 0;
  }
  return used;
}

/** Counters per INSERT: 6 parameters each, well under both engines' limits. */
const KEYS_PER_STATEMENT = 256;
/** Participants per read of the counters: a power of two (padded()). */
const PARTICIPANTS_PER_READ = 512;

/**
 * What the counters hold for these keys (absent: 0). With `lock`, in the batch's transaction: the
 * missing rows are made (0) and, on PostgreSQL, every row is locked FOR UPDATE in the single
 * posting's order (rule, participant, period, compared bytewise as JavaScript compares them), so a
 * batch and an event of the program API never wait on each other in a cycle; SQLite's writer is
 * the batch's already. Without `lock` (a preview), read only.
 */
export async function readCountersMany(
  db: Tx,
  clientId: string,
  keys: ReadonlyArray<{ ruleId: string; participantId: string; period: string }>,
  options: { lock: boolean; now: string },
): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  const ordered = inLockOrder(keys);
  if (ordered.length === 0) return held;
  const postgres = isPostgres(db);
  if (options.lock) {
    for (const [from, to] of pieces(ordered.length, KEYS_PER_STATEMENT)) {
      const parameters: unknown[] = [];
      for (let i = from; i < to; i += 1) {
        const k = ordered[i]!;
        parameters.push(clientId, k.ruleId, k.participantId, k.period, 0, options.now);
      }
      await db.executeQuery(CompiledQuery.raw(insertMissing(to - from, postgres), parameters));
    }
  }
  // By rule, then its participants, the index's leading columns (a row-value IN over (rule,
  // participant, period) was read as a scan of all the client's counters per statement); the
  // periods not asked for come along and are left out. Rule by rule and participants in order,
  // the rows are locked in the single posting's order (rule, participant, period) across statements.
  const wanted = new Set(ordered.map(counterText));
  const byRule = Map.groupBy(ordered, (k) => k.ruleId);
  for (const [ruleId, keys] of byRule) {
    const participants = [...new Set(keys.map((k) => k.participantId))];
    for (let from = 0; from < participants.length; from += PARTICIPANTS_PER_READ) {
      const chunk = padded(participants.slice(from, from + PARTICIPANTS_PER_READ));
      const { rows } = await db.executeQuery<{ rule_id: string; participant_id: string; period: string; points: number }>(
        CompiledQuery.raw(selectCounters(chunk.length, postgres, options.lock && postgres), [clientId, ruleId, ...chunk]),
      );
      for (const row of rows) {
        const text = counterText({ ruleId: row.rule_id, participantId: row.participant_id, period: row.period });
        if (wanted.has(text)) held.set(text, Number(row.points));
      }
    }
  }
  return held;
}

/** Adds what a batch gave to the counters it locked (readCountersMany with `lock`, same transaction): one UPDATE per 256 counters. */
export async function addToCountersMany(
  trx: Tx,
  clientId: string,
  takes: ReadonlyMap<string, { ruleId: string; participantId: string; period: string; points: number }>,
  now: string,
): Promise<void> {
  const given = [...takes.values()].filter((t) => t.points !== 0);
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(given.length, KEYS_PER_STATEMENT)) {
    const parameters: unknown[] = [now];
    for (let i = from; i < to; i += 1) {
      const t = given[i]!;
      parameters.push(t.ruleId, t.participantId, t.period, t.points);
    }
    parameters.push(clientId);
    await trx.executeQuery(CompiledQuery.raw(updateCounters(to - from, postgres), parameters));
  }
}

function insertMissing(rows: number, postgres: boolean): string {
  return statementText(`counters.insert:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()})`).join(', ');
    return `insert into earning_rule_counters (client_id, rule_id, participant_id, period, points, updated_at) values ${values} on conflict (client_id, rule_id, participant_id, period) do nothing`;
  });
}

function selectCounters(participants: number, postgres: boolean, lock: boolean): string {
  return statementText(`counters.select:${participants}:${postgres}:${lock}`, () => {
    const p = placeholders(postgres);
    const client = p();
    const rule = p();
    const participantList = Array.from({ length: participants }, p).join(', ');
    const c = postgres ? ' collate "C"' : '';
    return (
      `select rule_id, participant_id, period, points from earning_rule_counters where client_id = ${client} and rule_id = ${rule} and participant_id in (${participantList})` +
      (lock ? ` order by participant_id${c}, period${c} for update` : '')
    );
  });
}

function updateCounters(rows: number, postgres: boolean): string {
  return statementText(`counters.update:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const now = p();
    const values = Array.from({ length: rows }, () => `(${p()}, ${p()}, ${p()}, cast(${p()} as integer))`).join(', ');
    return `update earning_rule_counters set points = earning_rule_counters.points + d.column4, updated_at = ${now} from (values ${values}) as d where earning_rule_counters.client_id = ${p()} and earning_rule_counters.rule_id = d.column1 and earning_rule_counters.participant_id = d.column2 and earning_rule_counters.period = d.column3`;
  });
}
