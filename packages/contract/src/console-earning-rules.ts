import { z } from 'zod';
import { EarningRule, EarningRuleView } from './earning-rules.ts';

/**
 * Programs → Earning rules in the console (issue 32 §2, docs/decisions/095 and 096): a client's
 * rules, one rule's versions, changes with a reason, and "Try it" (what an event would earn,
 * writing nothing). Every role of the client reads and tries; program managers and owners change.
 * The rule itself is the same JSON as a rule file (EarningRule in ./earning-rules.ts).
 */
const seg = encodeURIComponent;

/** The console's paths, under /api/console/v1. */
export const consoleEarningRulesPaths = {
  /** GET: the client's rules (ConsoleEarningRuleList); POST: add one (ConsoleEarningRuleChangeRequest → ConsoleEarningRuleChangeReply, 201). */
  rules: (clientId: string) => `/clients/${seg(clientId)}/earning-rules`,
  /** GET: the rule and its versions (ConsoleEarningRuleDetail); PUT: a new version (ConsoleEarningRuleChangeRequest → ConsoleEarningRuleChangeReply). */
  rule: (clientId: string, ruleId: string) => `/clients/${seg(clientId)}/earning-rules/${seg(ruleId)}`,
  /** POST: enable or disable the rule, a version too (ConsoleEarningRuleStateRequest → ConsoleEarningRuleChangeReply). */
  state: (clientId: string, ruleId: string) => `/clients/${seg(clientId)}/earning-rules/${seg(ruleId)}/state`,
  /** POST: what an event would earn, rule by rule, writing nothing (EarningEvent → SimulationResult). */
  simulate: (clientId: string) => `/clients/${seg(clientId)}/earning-rules-simulation`,
} as const;

export const ConsoleEarningRulesParams = z.object({ clientId: z.string().min(1).max(64) });
export const ConsoleEarningRuleParams = z.object({ clientId: z.string().min(1).max(64), ruleId: z.string().min(1).max(48) });

const Reason = z.string().trim().min(3).max(500);
/** When the new version begins (ISO 8601 with offset), now if left out; never in the past. */
const EffectiveFrom = z.string().trim().min(10).max(40).optional();

/**
 * A new rule or a new version: `rule` is the rule's JSON as a file holds it (the service checks it
 * with EarningRule and answers every problem with where it is), with a reason for the audit log.
 */
export const ConsoleEarningRuleChangeRequest = z.object({
  rule: z.record(z.string(), z.unknown()),
  reason: Reason,
  effectiveFrom: EffectiveFrom,
});
export type ConsoleEarningRuleChangeRequest = z.infer<typeof ConsoleEarningRuleChangeRequest>;

export const ConsoleEarningRuleStateRequest = z.object({ enabled: z.boolean(), reason: Reason, effectiveFrom: EffectiveFrom });
export type ConsoleEarningRuleStateRequest = z.infer<typeof ConsoleEarningRuleStateRequest>;

export const ConsoleEarningRuleList = z.object({ rules: z.array(EarningRuleView) });
export type ConsoleEarningRuleList = z.infer<typeof ConsoleEarningRuleList>;

/** One version of a rule: who changed it, when, why, and which of the rule's fields it changed. */
export const EarningRuleVersionView = z.object({
  version: z.number().int(),
  effectiveFrom: z.string(),
  enabled: z.boolean(),
  changedBy: z.string(),
  changedAt: z.string(),
  reason: z.string(),
  /** The fields changed from the version before (all of them for version 1). */
  changed: z.array(z.string()),
  rule: EarningRule,
});
export type EarningRuleVersionView = z.infer<typeof EarningRuleVersionView>;

/** A rule's page: the rule (its latest version, the one in force, the budget left) and every version, oldest first. */
export const ConsoleEarningRuleDetail = z.object({ rule: EarningRuleView, versions: z.array(EarningRuleVersionView) });
export type ConsoleEarningRuleDetail = z.infer<typeof ConsoleEarningRuleDetail>;

/** After a change: the rule as it is now; unchanged when the change would have changed nothing (no version written). */
export const ConsoleEarningRuleChangeReply = z.object({ rule: EarningRuleView, unchanged: z.boolean() });
export type ConsoleEarningRuleChangeReply = z.infer<typeof ConsoleEarningRuleChangeReply>;
