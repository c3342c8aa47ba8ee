import type { ProgramEvent, ProgramEventLine } from '@rewards/contract/events';
import { releaseDayOf } from './pending.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';

/** An event and its lines as the program API and the console show them (decisions 097, 098). */

const parseMap = (json: string | null): Record<string, string> => (json === null ? {} : (JSON.parse(json) as Record<string, string>));

/** `timeZone`: the client's, whose calendar day a pending line is released on (decision 098). */
export function lineView(row: ParticipantEventLinesTable, timeZone: string): ProgramEventLine {
  return {
    ruleId: row.rule_id,
    version: Number(row.rule_version),
    name: row.name,
    kind: row.kind === 'promotion' || row.kind === 'return' ? row.kind : 'earn',
    points: Number(row.points),
    pending: Number(row.pending) === 1,
    availableAt: row.available_at,
    availableOn: Number(row.pending) === 1 && row.available_at !== null ? releaseDayOf(row.available_at, timeZone) : null,
    releasedAt: row.released_at,
    reversedPoints: Number(row.reversed_points),
    debtPoints: Number(row.debt_points),
    calculation: row.calculation,
    trims: JSON.parse(row.trims) as ProgramEventLine['trims'],
  };
}

export function eventView(row: ParticipantEventsTable, lines: readonly ParticipantEventLinesTable[], timeZone: string): ProgramEvent {
  return {
    id: row.id,
    type: row.type,
    username: row.username,
    occurredAt: row.occurred_at,
    receivedAt: row.received_at,
    amount: row.amount,
    currency: row.currency,
    attributes: parseMap(row.attributes),
    references: parseMap(row.refs),
    points: Number(row.points),
    pendingPoints: Number(row.pending_points),
    returnedAmount: row.returned_amount,
    reversedPoints: Number(row.reversed_points),
    debtPoints: Number(row.debt_points),
    lines: lines.map((line) => lineView(line, timeZone)),
  };
}

/** A rule's words in the client's language: its name and text ("Store purchases: 2 points per euro in store"). */
export function ruleWords(name: string, text: Readonly<Record<string, string>> | undefined, locale: string): string {
  const words = text?.[locale] ?? (text ? Object.values(text)[0] : undefined);
  return words === undefined || words === name ? name : `${name}: ${words}`;
}

/** A ledger entry's text: the rules' words joined; a long list is cut with "…". */
export function entryText(words: readonly string[]): string {
  const text = words.join(' + ');
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/**
 * The rules' words in every language their texts are written in, the client's default first:
 * an entry's `rules` parameter, so each participant's history reads them in their own language
 * (activity/describe.ts picks it; decision 101).
 */
export function entryTextsByLocale(
  rules: ReadonlyArray<{ name: string; text: Readonly<Record<string, string>> | undefined }>,
  defaultLocale: string,
): Record<string, string> {
  const locales = new Set([defaultLocale, ...rules.flatMap((rule) => Object.keys(rule.text ?? {}))]);
  return Object.fromEntries(
    [...locales].map((locale) => [locale, entryText(rules.map((rule) => ruleWords(rule.name, rule.text, locale)))]),
  );
}

/** A credit's ledger entry texts (an event's, a release's): the client's words as its description, every language's as its `rules`. */
export function creditEntryTexts(
  rules: ReadonlyArray<{ name: string; text: Readonly<Record<string, string>> | undefined }>,
  locale: string,
) {
  const words = entryTextsByLocale(rules, locale);
  return { description: words[locale] ?? '', descriptionKey: 'ledger.events.earned', descriptionParams: { rules: words } };
}
