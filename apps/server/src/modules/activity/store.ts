import type { Db } from '../../db/database.ts';

/**
 * A participant's whole ledger, oldest first, in one query that the
 * (client_id, participant_id, occurred_at) index serves; ties keep the order they were written.
 */
export async function listStatementEntries(db: Db, clientId: string, participantId: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['occurred_at', 'description', 'description_key', 'description_params', 'amount'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .orderBy('occurred_at')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
