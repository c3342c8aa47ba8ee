import type { EarningCondition, EarningRule, EarningRuleView } from '@rewards/contract/earning-rules';
import { formatDate, formatNumber, t } from '../../i18n/t.ts';

// How a rule reads in the console's lists and pages: one line per part, in the program manager's words.

/** What the rule earns: "2 points per 1.00 (rounded down)", "50 points", "×2 of all rules". */
export function earnText(rule: EarningRule): string {
  const { earn } = rule;
  if (earn.points !== undefined) return t('rules.earn.points', { points: formatNumber(earn.points) });
  const rounding = earn.rounding ? t(`rules.rounding.${earn.rounding}`) : '';
  if (earn.pointsPer !== undefined)
    return t('rules.earn.per', {
      points: formatNumber(earn.pointsPer),
      per: `${earn.per ?? ''}${earn.currency ? ` ${earn.currency}` : ''}`,
      rounding,
    });
  return t('rules.earn.multiply', {
    factor: earn.multiply ?? '',
    rules: earn.rules ? earn.rules.join(', ') : t('rules.earn.allRules'),
    rounding,
  });
}

/** The days the rule earns: "from 1 Dec 2026", "1 Dec 2026 – 31 Dec 2026", "always". */
export function validityText(rule: Pick<EarningRule, 'validFrom' | 'validUntil'>): string {
  const day = (d: string) => formatDate(`${d}T12:00:00Z`);
  if (rule.validFrom && rule.validUntil) return t('rules.valid.between', { from: day(rule.validFrom), until: day(rule.validUntil) });
  if (rule.validFrom) return t('rules.valid.from', { from: day(rule.validFrom) });
  if (rule.validUntil) return t('rules.valid.until', { until: day(rule.validUntil) });
  return t('rules.valid.always');
}

/** One condition as a line: "category in shoes, bags", "amount at least 10.00". */
export function conditionText(c: EarningCondition): string {
  if (c.attribute !== undefined) {
    if (c.in) return t('rules.cond.in', { attribute: c.attribute, values: c.in.join(', ') });
    if (c.notIn) return t('rules.cond.notIn', { attribute: c.attribute, values: c.notIn.join(', ') });
    return t('rules.cond.equals', { attribute: c.attribute, value: c.equals ?? '' });
  }
  if (c.amount) {
    const parts = [
      c.amount.atLeast === undefined ? null : t('rules.cond.atLeast', { amount: c.amount.atLeast }),
      c.amount.atMost === undefined ? null : t('rules.cond.atMost', { amount: c.amount.atMost }),
    ].filter((p) => p !== null);
    return t('rules.cond.amount', { test: parts.join(', ') });
  }
  if (c.programs) {
    const parts = [
      c.programs.anyOf ? t('rules.cond.anyOf', { programs: c.programs.anyOf.join(', ') }) : null,
      c.programs.noneOf ? t('rules.cond.noneOf', { programs: c.programs.noneOf.join(', ') }) : null,
    ].filter((p) => p !== null);
    return t('rules.cond.programs', { test: parts.join(', ') });
  }
  if (c.status) return t('rules.cond.status', { statuses: c.status.in.join(', ') });
  if (c.dayOfWeek) return t('rules.cond.dayOfWeek', { days: c.dayOfWeek.join(', ') });
  if (c.date) return t('rules.cond.date', { from: c.date.from ?? '…', to: c.date.to ?? '…' });
  return JSON.stringify(c);
}

/** The participant cap: "500 points per participant per month", or none. */
export function capText(rule: EarningRule): string {
  const cap = rule.caps.participant;
  return cap ? t(`rules.cap.${cap.per}`, { points: formatNumber(cap.points) }) : t('rules.cap.none');
}

/** The budget: "1,200 of 1,000,000 used, 998,800 left", or none. */
export function budgetText(view: Pick<EarningRuleView, 'budget'>): string {
  const { budget } = view;
  return budget
    ? t('rules.budget.used', { used: formatNumber(budget.used), points: formatNumber(budget.points), left: formatNumber(budget.left) })
    : t('rules.budget.none');
}
