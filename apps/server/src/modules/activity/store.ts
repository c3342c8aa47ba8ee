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

/**
 * What a statement is made of on the participant's side, in one read: their own row's fields and
 * how many ledger entries they have. The ledger is append-only, so the count moves with every
 * entry, whichever connection or process wrote it (docs/decisions/044). The count walks the
 * statement index only (~2 ms for 10,000 entries on SQLite), not the rows.
 */
export async function findStatementVersion(db: Db, clientId: string, participantId: string) {
  return db
    .selectFrom('participants')
    .select(['username_key', 'account_number', 'locale', 'balance'])
    .select((eb) =>
      eb
        .selectFrom('ledger_entries')
        .select((inner) => inner.fn.countAll<number | string>().as('entries'))
        .where('ledger_entries.client_id', '=', clientId)
        .where('ledger_entries.participant_id', '=', participantId)
        .as('entries'),
    )
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
}
