import { randomUUID } from 'node:crypto';
import { appendLedgerEntries } from '../../modules/ledger/bulk.ts';
import type { LedgerMovement } from '../../modules/ledger/service.ts';
import { withSearchKeys } from '../../modules/participants/search-keys.ts';
import type { DemoSeedContext } from './demo-context.ts';
import { demoEntries } from './demo-descriptions.ts';

export const BIGSPENDER = { username: 'bigspender', accountNumber: '1000007', entries: 10_000 } as const;

const DAY = 86_400_000;
const SPAN_DAYS = 3 * 365;
const PROGRAM = 'Sales Incentive 2026';
const rewards = [
  () => demoEntries.monthlyTarget(PROGRAM),
  () => demoEntries.spotBonus(),
  () => demoEntries.teamGoal(),
  () => demoEntries.training(),
  () => demoEntries.quarterly(PROGRAM),
];
const redemptions = [
  () => demoEntries.catalog('wireless headphones', 'ledger.item.wirelessHeadphones'),
  () => demoEntries.catalog('coffee machine', 'ledger.item.coffeeMachine'),
  () => demoEntries.catalog('gift card', 'ledger.item.giftCard'),
  () => demoEntries.experience('concert tickets', 'ledger.item.concertTickets'),
  () => demoEntries.experience('spa day', 'ledger.item.spaDay'),
];

/** A small deterministic generator, so every seed gives Bea the same history. */
function generator(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

/**
 * Bea's history: 10,000 awards and redemptions over three years (one every 2.6 hours or so),
 * never below zero, to show the history screen with a long statement. Written through the
 * ledger's bulk path (multi-row inserts, its lots included, docs/decisions/057): appending them
 * one by one would cost 20,000 round trips in every test file that seeds the demo.
 */
export function bigspenderHistory(clientId: string, participantId: string, now: Date): LedgerMovement[] {
  const random = generator(7);
  const start = now.getTime() - SPAN_DAYS * DAY;
  const step = (SPAN_DAYS * DAY) / BIGSPENDER.entries;
  const rows: LedgerMovement[] = [];
  let balance = 0;
  for (let index = 0; index < BIGSPENDER.entries; index += 1) {
    const spend = balance >= 500 && random(10) < 3;
    const amount = spend ? -Math.min(balance, 200 + random(40) * 25) : 25 + random(20) * 25;
    const entry = spend ? redemptions[random(redemptions.length)]!() : rewards[random(rewards.length)]!();
    balance += amount;
    rows.push({
      clientId,
      participantId,
      occurredAt: new Date(Math.floor(start + index * step)).toISOString(),
      description: entry.description,
      descriptionKey: entry.descriptionKey,
      ...('descriptionParams' in entry ? { descriptionParams: entry.descriptionParams } : {}),
      amount,
      kind: entry.kind,
    });
  }
  return rows;
}

/** The activity part of the demo program (issue 5): Bea Bigspender and her long history. */
export async function seedDemoActivity(ctx: DemoSeedContext): Promise<void> {
  const { trx, clientId, now } = ctx;
  const id = randomUUID();
  const history = bigspenderHistory(clientId, id, now);
  await trx
    .insertInto('participants')
    .values(
      withSearchKeys({
        id,
        client_id: clientId,
        username: BIGSPENDER.username,
        username_key: BIGSPENDER.username,
        email: `${BIGSPENDER.username}@example.com`,
        first_name: 'Bea',
        last_name: 'Bigspender',
        password_hash: ctx.demoPasswordHash,
        status: 'active',
        locale: 'en-US',
        account_number: BIGSPENDER.accountNumber,
        offers_merchandise: 1,
        offers_experiences: 1,
        ots_enabled: 1,
        privacy_ack_version: 0,
        // Set by the entries below.
        balance: null,
        created_at: now.toISOString(),
      }),
    )
    .execute();
  await trx
    .insertInto('participant_programs')
    .values({ client_id: clientId, participant_id: id, program_name: PROGRAM, position: 0 })
    .execute();
  await appendLedgerEntries(trx, clientId, history, now);
}
