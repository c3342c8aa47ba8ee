import type { Db } from '../../db/database.ts';

/**
 * The console's reads of one participant (docs/decisions/047). Every query names the client
 * and the participant, so nothing of another client can come along; each is served by an
 * index on (client_id, participant …).
 */

/** The newest rows of each list on the participant's page; older ones are the CLI's or the audit trail's. */
export const PAGE_LIST_LIMIT = 50;

export async function redeemedCodes(db: Db, clientId: string, participantId: string) {
  return db
    .selectFrom('ots_codes')
    .select(['code_hint', 'value', 'redeemed_at', 'batch'])
    .where('client_id', '=', clientId)
    .where('redeemed_by', '=', participantId)
    .orderBy('redeemed_at', 'desc')
    .limit(PAGE_LIST_LIMIT)
    .execute();
}

/** Where a page of the console's statement ends: the last entry's place, newest first. */
export interface ConsoleStatementCursor {
  occurred_at: string;
  created_at: string;
  id: string;
}

/** A page of the ledger newest first (ties: latest written first), `limit + 1` entries after `after`. */
export async function statementRows(
  db: Db,
  clientId: string,
  participantId: string,
  after: ConsoleStatementCursor | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'occurred_at',
      'created_at',
      'description',
      'description_key',
      'description_params',
      'amount',
      'kind',
      'internal_note',
      'posted_by',
    ])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('occurred_at', 'created_at', 'id'), '<', eb.tuple(after.occurred_at, after.created_at, after.id)),
    );
  return query
    .orderBy('occurred_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/**
 * The balance just after the entry `at`: the cached balance minus every entry newer than it, in
 * one statement, so both are one state of the ledger (which moves them in one transaction). An
 * entry posted meanwhile is in both and cancels out. The sum walks the newer entries only (the
 * pages already shown), never the older history.
 */
export async function balanceAfter(
  db: Db,
  clientId: string,
  participantId: string,
  at: ConsoleStatementCursor,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('participants')
    .select('balance')
    .select((eb) =>
      eb
        .selectFrom('ledger_entries')
        .select((inner) => inner.fn.sum<number | string | null>('amount').as('total'))
        .where('ledger_entries.client_id', '=', clientId)
        .where('ledger_entries.participant_id', '=', participantId)
        .where((w) =>
          w(
            w.refTuple('ledger_entries.occurred_at', 'ledger_entries.created_at', 'ledger_entries.id'),
            '>',
            w.tuple(at.occurred_at, at.created_at, at.id),
          ),
        )
        .as('newer'),
    )
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
  return row && Number(row.balance ?? 0) - Number(row.newer ?? 0);
}
