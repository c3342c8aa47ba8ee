import { RETURN_ORIGINAL_REFERENCE, type ProgramEventRequest } from '@rewards/contract/events';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { errors } from '../../http/api-error.ts';
import { lockCapsOfEvent, ruleVersionKey, ruleVersionTexts } from '../earning-rules/service.ts';
import { compareDecimals, formatDecimal, parseDecimal, type Decimal } from '../earning-rules/decimal.ts';
import { appendLedgerEntryWithBalance } from '../ledger/service.ts';
import { addPendingPoints } from '../participants/service.ts';
import { tellWebhooksMany } from '../webhooks/service.ts';
import { entryTextsByLocale } from './views.ts';
import { addLineReversed, findEvent, insertEvent, insertLines, linesOfEvent, lockEvent, setEventReturned } from './store.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';

/**
 * Returns (issue 32 §3, docs/decisions/098): a `return` event names its original event
 * (`references.originalEventId`) and takes back what that event earned, whole (no amount: all that
 * is left) or in proportion to its amount, once per return id. The target is computed from the
 * cumulative amount returned, so partial returns never drift: points taken back so far =
 * floor(earned × returned ÷ original amount), all of it once the returns reach the original
 * amount, never more however many returns arrive. What is taken comes from the original's pending
 * lines first (not yet released: the pending total goes down), then from its credited or released
 * lines out of the balance, never below zero; what the balance cannot cover is the return's debt,
 * kept on it and shown. The caps and budgets are given back what was taken (not the debt).
 */

const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);
const nothingKept = '; nothing was kept';

export const returnErrors = {
  noOriginal: () =>
    errors.validation(
      `A return names the event it returns: references.${RETURN_ORIGINAL_REFERENCE} is the id of the original event${nothingKept}`,
    ),
  unknownOriginal: (id: string) =>
    errors.validation(`No event "${clip(id)}" in this program to return: send the original event first${nothingKept}`),
  othersEvent: (id: string) =>
    errors.validation(
      `The event "${clip(id)}" is another participant's: a return is sent for the participant of its original event${nothingKept}`,
    ),
  returnOfReturn: (id: string) =>
    errors.validation(`The event "${clip(id)}" is a return itself: a return names the event that earned${nothingKept}`),
  amountWithoutOriginalAmount: (id: string) =>
    errors.validation(
      `The event "${clip(id)}" has no amount, so a return of it cannot be partial: send the return without an amount to return it in whole${nothingKept}`,
    ),
  zeroAmount: () => errors.validation(`A return's amount is more than 0 (without an amount it returns the rest in whole)${nothingKept}`),
  amountAboveOriginal: (amount: string, original: string) =>
    errors.validation(`The amount ${clip(amount)} is more than the original event's ${original}${nothingKept}`),
  currencyMismatch: (currency: string, original: string | null) =>
    errors.validation(
      original === null
        ? `The original event has no currency; send the return without one${nothingKept}`
        : `The return's currency ${clip(currency)} is not the original event's ${original}${nothingKept}`,
    ),
  beforeOriginal: (id: string) => errors.validation(`The return happened before its original event "${clip(id)}"${nothingKept}`),
};

const ZERO: Decimal = { units: 0n, scale: 0 };

function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
}

/** The original event a return names, checked (the participant's own, an event that earned, amounts that fit); 400 otherwise. */
export function checkOriginal(
  event: ProgramEventRequest,
  original: ParticipantEventsTable,
  participantId: string,
  occurredAt: string,
): void {
  const originalId = original.id;
  if (original.participant_id !== participantId) throw returnErrors.othersEvent(originalId);
  if (original.type === 'return') throw returnErrors.returnOfReturn(originalId);
  if (Date.parse(occurredAt) < Date.parse(original.occurred_at)) throw returnErrors.beforeOriginal(originalId);
  if (event.currency !== undefined && event.currency !== original.currency)
    throw returnErrors.currencyMismatch(event.currency, original.currency);
  if (event.amount !== undefined) {
    if (original.amount === null) throw returnErrors.amountWithoutOriginalAmount(originalId);
    const amount = parseDecimal(event.amount);
    if (amount.units === 0n) throw returnErrors.zeroAmount();
    if (compareDecimals(amount, parseDecimal(original.amount)) > 0) throw returnErrors.amountAboveOriginal(event.amount, original.amount);
  }
}

/**
 * A return's checks before its posting, with words for each refusal, nothing kept: the original
 * named, and, when it is kept already, checkOriginal. An original not found yet may be an event
 * of the same batch queued just before on SQLite's writer: the posting looks again under its lock
 * (postReturn), and refuses it then.
 */
export async function checkReturn(
  db: Db,
  clientId: string,
  event: ProgramEventRequest,
  participantId: string,
  occurredAt: string,
): Promise<string> {
  const originalId = event.references?.[RETURN_ORIGINAL_REFERENCE];
  if (originalId === undefined) throw returnErrors.noOriginal();
  const original = await findEvent(db, clientId, originalId);
  if (original) checkOriginal(event, original, participantId, occurredAt);
  else if (event.amount !== undefined && parseDecimal(event.amount).units === 0n) throw returnErrors.zeroAmount();
  return originalId;
}

/** The points taken back of an original event once `returned` of its `amount` is returned: in proportion, rounded down, all at the whole amount. */
export function pointsToTakeBack(earned: number, returned: Decimal | undefined, amount: Decimal | undefined): number {
  if (returned === undefined || amount === undefined || compareDecimals(returned, amount) >= 0) return earned;
  if (amount.units === 0n) return earned;
  // earned × returned ÷ amount, both decimals brought to one scale, as bigints: exact.
  const numerator = BigInt(earned) * returned.units * 10n ** BigInt(amount.scale);
  const denominator = amount.units * 10n ** BigInt(returned.scale);
  return Number(numerator / denominator);
}

export interface ReturnPosting {
  clientId: string;
  event: ProgramEventRequest;
  participant: { id: string; username: string };
  originalId: string;
  occurredAt: string;
  receivedAt: string;
  hash: string;
  keyId: string;
  postedBy: string;
  timeZone: string;
  locale: string;
  now: Date;
}

/** One line of the original's, and what this return reverses of it. */
export interface Reversal {
  line: ParticipantEventLinesTable;
  points: number;
  fromPending: boolean;
  taken: number;
  debt: number;
}

/** What a return takes back of its original (planReturn), before the balance is looked at. */
export interface ReturnPlan {
  /** The original's lines that earned (points above 0): their rules' counters are the ones given back to. */
  earning: ParticipantEventLinesTable[];
  /** The original's returned amount after this return (capped at its own), undefined for an event without an amount. */
  returnedAfter: Decimal | undefined;
  /** The original's points taken back in all after this return. */
  reversedAfter: number;
  /** Pending lines first (not yet released), then the credited and released ones, each in the event's order. */
  reversals: Reversal[];
}

/**
 * What a return of `original` (checked: checkOriginal) takes back, line by line, in proportion to
 * the cumulative amount returned (pointsToTakeBack), never more than was earned. Pure: the single
 * posting (postReturn) and a file's batch (events/bulk.ts) both plan a return with it.
 */
export function planReturn(
  event: ProgramEventRequest,
  original: ParticipantEventsTable,
  lines: readonly ParticipantEventLinesTable[],
): ReturnPlan {
  const earning = lines.filter((line) => Number(line.points) > 0);
  const earned = earning.reduce((sum, line) => sum + Number(line.points), 0);
  const reversedBefore = Number(original.reversed_points);
  const originalAmount = original.amount === null ? undefined : parseDecimal(original.amount);
  let returnedAfter: Decimal | undefined;
  if (event.amount === undefined || originalAmount === undefined) returnedAfter = originalAmount;
  else {
    const sum = addDecimals(original.returned_amount === null ? ZERO : parseDecimal(original.returned_amount), parseDecimal(event.amount));
    returnedAfter = compareDecimals(sum, originalAmount) > 0 ? originalAmount : sum;
  }
  const target = Math.min(earned, pointsToTakeBack(earned, returnedAfter, originalAmount));
  let left = Math.max(0, target - reversedBefore);
  const isOpen = (line: ParticipantEventLinesTable) => Number(line.pending) === 1 && line.released_at === null;
  const reversals: Reversal[] = [];
  for (const line of [...earning.filter(isOpen), ...earning.filter((line) => !isOpen(line))]) {
    const points = Math.min(left, Number(line.points) - Number(line.reversed_points));
    if (points <= 0) continue;
    left -= points;
    reversals.push({ line, points, fromPending: isOpen(line), taken: 0, debt: 0 });
  }
  return { earning, returnedAfter, reversedAfter: reversedBefore + reversals.reduce((sum, r) => sum + r.points, 0), reversals };
}

export interface ReturnCover {
  fromPending: number;
  fromBalance: number;
  debt: number;
}

/** What the return takes from pending points and from a balance of `balance`, never below zero; the rest is each line's debt. */
export function coverReturn(reversals: Reversal[], balance: number): ReturnCover {
  let cover = balance;
  for (const r of reversals) {
    if (r.fromPending) r.taken = r.points;
    else {
      r.taken = Math.min(r.points, Math.max(0, cover));
      cover -= r.taken;
    }
    r.debt = r.points - r.taken;
  }
  return {
    fromPending: reversals.filter((r) => r.fromPending).reduce((sum, r) => sum + r.points, 0),
    fromBalance: reversals.filter((r) => !r.fromPending).reduce((sum, r) => sum + r.taken, 0),
    debt: reversals.reduce((sum, r) => sum + r.debt, 0),
  };
}

/**
 * The return's ledger entry's words: "Return of <original id>: <the rules' words>", and the rules'
 * part for the participant's language (descriptionKey 'ledger.events.return').
 */
export function returnEntryText(
  originalId: string,
  reversals: readonly Reversal[],
  ruleOf: (line: ParticipantEventLinesTable) => { name: string; text: Readonly<Record<string, string>> | undefined },
  defaultLocale: string,
): { description: string; descriptionKey: string; descriptionParams: { eventId: string; rules: Record<string, string> } } {
  // The rules' words in each language they are written in, as an event's credit keeps them (decision 101).
  const rules = entryTextsByLocale(
    reversals.filter((r) => !r.fromPending && r.taken > 0).map((r) => ruleOf(r.line)),
    defaultLocale,
  );
  const words = `Return of ${originalId}: ${rules[defaultLocale] ?? ''}`;
  return {
    description: words.length > 500 ? `${words.slice(0, 499)}…` : words,
    descriptionKey: 'ledger.events.return',
    descriptionParams: { eventId: originalId, rules },
  };
}

/** What a return is kept as: its event (points and pending negative, its debt) and a line per line of the original it took from. */
export function returnRows(
  p: Pick<ReturnPosting, 'clientId' | 'event' | 'participant' | 'originalId' | 'occurredAt' | 'receivedAt' | 'hash' | 'keyId'>,
  originalAmount: string | null,
  reversals: readonly Reversal[],
  covered: ReturnCover,
  entryId: string | null,
): { row: ParticipantEventsTable; lines: ParticipantEventLinesTable[] } {
  const returned = p.event.amount === undefined ? 'in whole' : `${p.event.amount} of ${originalAmount}`;
  const row: ParticipantEventsTable = {
    client_id: p.clientId,
    id: p.event.id,
    body_hash: p.hash,
    type: 'return',
    participant_id: p.participant.id,
    username: p.participant.username,
    occurred_at: p.occurredAt,
    received_at: p.receivedAt,
    amount: p.event.amount ?? null,
    currency: p.event.currency ?? null,
    attributes: p.event.attributes === undefined ? null : JSON.stringify(p.event.attributes),
    refs: p.event.references === undefined ? null : JSON.stringify(p.event.references),
    points: -covered.fromBalance,
    pending_points: -covered.fromPending,
    key_id: p.keyId,
    returned_amount: null,
    reversed_points: 0,
    debt_points: covered.debt,
  };
  const lines = reversals.map((r, i): ParticipantEventLinesTable => ({
    client_id: p.clientId,
    event_id: p.event.id,
    line: i + 1,
    rule_id: r.line.rule_id,
    rule_version: Number(r.line.rule_version),
    name: r.line.name,
    kind: 'return',
    points: -r.taken,
    pending: r.fromPending ? 1 : 0,
    available_at: null,
    entry_id: !r.fromPending && r.taken > 0 ? entryId : null,
    calculation:
      `${r.points} of the ${Number(r.line.points)} points of ${p.originalId} (${returned}; ${Number(r.line.reversed_points) + r.points} taken back so far)` +
      (r.fromPending ? ', from pending points' : '') +
      (r.debt > 0 ? `, ${r.debt} not covered by the balance: owed` : ''),
    trims: '[]',
    participant_id: p.participant.id,
    released_at: null,
    reversed_points: 0,
    debt_points: r.debt,
  }));
  return { row, lines };
}

/**
 * The return's posting, in the ledger writer's transaction. Locks, in the order every posting
 * takes them: the original event's row (a release or another return of it waits), the counters of
 * its rules, then the participant's row (the pending total and the balance).
 */
export async function postReturn(
  trx: Transaction<Database>,
  p: ReturnPosting,
): Promise<{ row: ParticipantEventsTable; lines: ParticipantEventLinesTable[] }> {
  const original = await lockEvent(trx, p.clientId, p.originalId);
  if (!original) throw returnErrors.unknownOriginal(p.originalId);
  checkOriginal(p.event, original, p.participant.id, p.occurredAt);
  const { earning, returnedAfter, reversedAfter, reversals } = planReturn(
    p.event,
    original,
    await linesOfEvent(trx, p.clientId, p.originalId),
  );
  const caps = await lockCapsOfEvent(trx, {
    clientId: p.clientId,
    participantId: p.participant.id,
    occurredAt: original.occurred_at,
    timeZone: p.timeZone,
    lines: earning.map((line) => ({ ruleId: line.rule_id, version: Number(line.rule_version) })),
    now: p.now,
  });
  const pendingTaken = reversals.filter((r) => r.fromPending).reduce((sum, r) => sum + r.points, 0);
  // Locks the participant's row and reads the balance the return may take from.
  const moved = await addPendingPoints(trx, p.clientId, p.participant.id, -pendingTaken);
  if (!moved) throw errors.notFound();
  const covered = coverReturn(reversals, moved.balance);
  const { fromPending, fromBalance, debt } = covered;

  const texts = await ruleVersionTexts(
    trx,
    p.clientId,
    reversals.map((r) => ({ ruleId: r.line.rule_id, version: Number(r.line.rule_version) })),
  );
  const ruleOf = (line: ParticipantEventLinesTable) => ({
    name: line.name,
    text: texts.get(ruleVersionKey({ ruleId: line.rule_id, version: Number(line.rule_version) })),
  });
  let entry: { entryId: string; balance: number } | undefined;
  if (fromBalance > 0)
    entry = await appendLedgerEntryWithBalance(
      trx,
      {
        clientId: p.clientId,
        participantId: p.participant.id,
        occurredAt: p.occurredAt,
        // "Return of" and the rules' words in the participant's language.
        ...returnEntryText(p.originalId, reversals, ruleOf, p.locale),
        amount: -fromBalance,
        kind: 'return',
        // Unique in the client, as an event's credit is: a return takes back once, whatever happens around it.
        reference: `event:${p.event.id}`,
        postedBy: p.postedBy,
      },
      p.now,
    );
  for (const r of reversals) await addLineReversed(trx, p.clientId, p.originalId, Number(r.line.line), r.points);
  await setEventReturned(trx, p.clientId, p.originalId, returnedAfter === undefined ? null : formatDecimal(returnedAfter), reversedAfter);
  await caps.giveBack(reversals.map((r) => ({ ruleId: r.line.rule_id, version: Number(r.line.rule_version), points: r.taken })));

  const { row, lines } = returnRows(p, original.amount, reversals, covered, entry?.entryId ?? null);
  await insertEvent(trx, row);
  await insertLines(trx, lines);
  if (reversals.length > 0)
    await tellWebhooksMany(
      trx,
      p.clientId,
      'points.reversed',
      async () => [
        {
          username: p.participant.username,
          data: {
            occurredAt: p.occurredAt,
            eventId: p.event.id,
            originalEventId: p.originalId,
            points: -fromBalance,
            pendingPoints: -fromPending,
            debtPoints: debt,
            balanceAfter: entry?.balance ?? moved.balance,
            entryId: entry?.entryId ?? null,
          },
        },
      ],
      p.now,
    );
  return { row, lines };
}
