import type { Db } from '../../db/database.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { appendLedgerEntry } from '../ledger/store.ts';

/**
 * The shared second client seeds a balance of 77 without a ledger entry, which the ledger
 * invariant counts as a disagreement; these tests make it a real entry first.
 */
export async function backOtherClientBalanceByLedger(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const people = await trx.selectFrom('participants').select(['id', 'balance']).where('client_id', '=', OTHER_CLIENT_ID).execute();
    for (const person of people) {
      const entries = await trx.selectFrom('ledger_entries').select('id').where('participant_id', '=', person.id).limit(1).execute();
      if (entries.length > 0 || person.balance === null) continue;
      await trx.updateTable('participants').set({ balance: null }).where('id', '=', person.id).execute();
      await appendLedgerEntry(trx, { clientId: OTHER_CLIENT_ID, participantId: person.id, occurredAt: new Date().toISOString(), description: 'Opening balance', amount: person.balance, kind: 'adjustment' });
    }
  });
}
