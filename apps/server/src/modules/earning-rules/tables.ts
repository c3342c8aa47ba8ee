import type { ColumnType } from 'kysely';

/** Earning rules (migration 041, decision 095). */

/** One rule of a client: its id and the number of its latest version (the change's lock). */
export interface EarningRulesTable {
  client_id: string;
  /** A slug of the name unless the file names one: what promotions and commands name it by. */
  id: string;
  /** Fixed for the rule's life: the versions in force are read by it. */
  event_type: string;
  latest_version: number;
  created_at: string;
  created_by: string;
  updated_at: string;
}

/** Every version of a rule as written; an event uses the one in force at its occurredAt. */
export interface EarningRuleVersionsTable {
  client_id: string;
  rule_id: string;
  version: number;
  event_type: string;
  /** ISO UTC instant from which this version is in force (until the next version's). */
  effective_from: string;
  /** 0: the rule is disabled from effective_from on. */
  enabled: number;
  /** The rule's JSON with its defaults filled in (contract EarningRule). */
  definition: string;
  reason: string;
  changed_by: string;
  changed_at: string;
}

/**
 * What a rule has given: per participant and cap period (`day:2026-12-05`, `month:2026-12`,
 * `ever`), and in all (participant_id '' and period 'budget'). A posting locks the rows it needs,
 * computes, and adds what it gave, in its own transaction.
 */
export interface EarningRuleCountersTable {
  client_id: string;
  rule_id: string;
  participant_id: string;
  period: string;
  /** bigint: PostgreSQL answers it as text; the store reads it with Number(). */
  points: ColumnType<number | string, number, number>;
  updated_at: string;
}
