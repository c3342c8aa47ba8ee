import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { appendLedgerEntry, type LedgerKind } from '../ledger/service.ts';
import type { ExpiryPolicy } from '@rewards/contract';
import { addGeneratedParticipants } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { withSearchKeys } from '../participants/search-keys.ts';

/**
 * Fixtures of the expiry tests (server and browser): a participant of their own, and credits
 * whose lot has a chosen expiry day. A credit is a real ledger entry (so the balance and the
 * ledger agree); its lot is made here, or, once every credit makes its own lot, given the day.
 */

export async function addExpiryParticipant(
  db: Db,
  person: {
    username: string;
    clientId?: string;
    status?: 'pending' | 'active' | 'inactive';
    locale?: string;
    email?: string;
    /** Copied from another participant of the client (password, privacy notice read), so the new one signs in as that one does. */
    passwordFrom?: string;
  },
): Promise<string> {
  const clientId = person.clientId ?? 'acme';
  const model = person.passwordFrom
    ? await db
        .selectFrom('participants')
        .select(['password_hash', 'privacy_ack_version'])
        .where('client_id', '=', clientId)
        .where('username_key', '=', person.passwordFrom.toLowerCase())
        .executeTakeFirstOrThrow()
    : { password_hash: '!', privacy_ack_version: 1 };
  const id = randomUUID();
  await db
    .insertInto('participants')
    .values(
      withSearchKeys({
        id,
        client_id: clientId,
        username: person.username,
        username_key: person.username.toLowerCase(),
        email: person.email ?? `${person.username}@example.com`,
        first_name: 'Erin',
        last_name: 'Expiring',
        password_hash: model.password_hash,
        status: person.status ?? 'active',
        locale: person.locale ?? 'en-US',
        account_number: `X${id.slice(0, 8)}`,
        offers_merchandise: 1,
        offers_experiences: 1,
        ots_enabled: 1,
        privacy_ack_version: model.privacy_ack_version,
        balance: null,
        created_at: new Date().toISOString(),
      }),
    )
    .execute();
  return id;
}

/** A credit of `points` earned on `earnedOn`, whose lot expires at the end of `expiresOn` (null: no day of its own). */
export async function creditWithExpiry(
  db: Db,
  credit: { clientId?: string; participantId: string; points: number; earnedOn: string; expiresOn: string | null },
): Promise<{ entryId: string; lotId: string }> {
  const clientId = credit.clientId ?? 'acme';
  return db.transaction().execute(async (trx) => {
    const entryId = await appendLedgerEntry(trx, {
      clientId,
      participantId: credit.participantId,
      occurredAt: `${credit.earnedOn}T12:00:00.000Z`,
      description: 'Award received',
      descriptionKey: 'ledger.import.award',
      amount: credit.points,
      kind: 'award',
    });
    const made = await trx.selectFrom('point_lots').select('id').where('entry_id', '=', entryId).executeTakeFirst();
    if (made) {
      await trx
        .updateTable('point_lots')
        .set({ expires_on: credit.expiresOn, earned_on: credit.earnedOn })
        .where('id', '=', made.id)
        .execute();
      return { entryId, lotId: made.id };
    }
    const lotId = randomUUID();
    await trx
      .insertInto('point_lots')
      .values({
        id: lotId,
        client_id: clientId,
        participant_id: credit.participantId,
        entry_id: entryId,
        earned_on: credit.earnedOn,
        expires_on: credit.expiresOn,
        amount: credit.points,
        remaining: credit.points,
        created_at: new Date().toISOString(),
      })
      .execute();
    return { entryId, lotId };
  });
}

/**
 * Spends `points` through the ledger, which takes them from the soonest open lot: the test names
 * that lot, and is told if the debit came out of another.
 */
export async function spendFromLot(
  db: Db,
  spend: { clientId?: string; participantId: string; lotId: string; points: number },
): Promise<void> {
  const clientId = spend.clientId ?? 'acme';
  await db.transaction().execute(async (trx) => {
    const remaining = () => trx.selectFrom('point_lots').select('remaining').where('id', '=', spend.lotId).executeTakeFirstOrThrow();
    const before = await remaining();
    await appendLedgerEntry(trx, {
      clientId,
      participantId: spend.participantId,
      occurredAt: new Date().toISOString(),
      description: 'Travel mug',
      amount: -spend.points,
      kind: 'redemption',
    });
    const after = await remaining();
    if (after.remaining !== before.remaining - spend.points) throw new Error(`the debit did not come out of lot ${spend.lotId}`);
  });
}

/** The calendar day `days` days from `from` (UTC). */
export function dayFrom(from: string, days: number): string {
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A bare client of its own for the expiry tests, with generated participants `<id>-pt0000000`…; nothing else. */
export async function addExpiryClient(
  db: Db,
  clientId: string,
  participants: number,
  policy: ExpiryPolicy,
  timeZone = 'UTC',
): Promise<void> {
  await insertTestClient(db, clientId, { expiry_policy: JSON.stringify(policy), time_zone: timeZone });
  await addGeneratedParticipants(db, clientId, participants);
}

/** What the expiry-settings service will set (issue 19): here straight into the clients table. */
export async function setPolicy(db: Db, clientId: string, policy: ExpiryPolicy): Promise<void> {
  await db
    .updateTable('clients')
    .set({ expiry_policy: JSON.stringify(policy) })
    .where('id', '=', clientId)
    .execute();
}

export const participant = (clientId: string, n: number) => `${clientId}-pt${String(n).padStart(7, '0')}`;

/** One movement through the ledger, as codes, orders and adjustments post them; debits must be covered. */
export async function move(
  db: Db,
  clientId: string,
  participantId: string,
  amount: number,
  occurredAt: string,
  kind: LedgerKind = amount > 0 ? 'award' : 'redemption',
): Promise<string> {
  return db.transaction().execute((trx) =>
    appendLedgerEntry(trx, { clientId, participantId, occurredAt, description: 'Test', amount, kind }, new Date(occurredAt), {
      requireCovered: amount < 0,
    }),
  );
}

export async function lotsOf(db: Db, participantId: string) {
  return db
    .selectFrom('point_lots')
    .select(['id', 'entry_id', 'earned_on', 'expires_on', 'amount', 'remaining'])
    .where('participant_id', '=', participantId)
    .orderBy('earned_on')
    .orderBy('id')
    .execute();
}

export async function balanceOf(db: Db, participantId: string): Promise<number | null> {
  const row = await db.selectFrom('participants').select('balance').where('id', '=', participantId).executeTakeFirstOrThrow();
  return row.balance === null ? null : Number(row.balance);
}

export async function expiryEntriesOf(db: Db, participantId: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'amount', 'kind', 'description_key', 'reference', 'occurred_at'])
    .where('participant_id', '=', participantId)
    .where('kind', '=', 'expiry')
    .orderBy('occurred_at')
    .execute();
}
