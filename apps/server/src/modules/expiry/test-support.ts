import type { ExpiryPolicy } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { appendLedgerEntry, type LedgerKind } from '../ledger/store.ts';
import { addGeneratedParticipants } from '../../../test/points-files.ts';

/** A bare client of its own for the expiry tests, with generated participants `<id>-pt0000000`…; nothing else. */
export async function addExpiryClient(
  db: Db,
  clientId: string,
  participants: number,
  policy: ExpiryPolicy,
  timeZone = 'UTC',
): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id: clientId,
      name: `Client ${clientId}`,
      default_locale: 'en-US',
      logo: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>',
      brand_color: '#047857',
      privacy_notice_version: 0,
      sso_type: 'login_only',
      sso_logout_type: 'login',
      site_name: clientId,
      site_url: `https://${clientId}.example`,
      portal_url: `https://rewards.${clientId}.example`,
      password_rules: JSON.stringify({ minLength: 8, maxLength: 64 }),
      activation_fields: '[]',
      countries: '[]',
      created_at: new Date().toISOString(),
      expiry_policy: JSON.stringify(policy),
      time_zone: timeZone,
    })
    .execute();
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
