import type { Db } from '../../db/database.ts';
import { sumNewerThanOf, type ConsoleStatementCursor } from '../ledger/service.ts';

/**
 * The console's reads of one participant (docs/decisions/047) that are the participants' own:
 * the ledger's entries and the codes they redeemed are those modules' reads (issue 30 §3). Every
 * query names the client and the participant, so nothing of another client can come along.
 */

/** The newest rows of each list on the participant's page; older ones are the CLI's or the audit trail's. */
export const PAGE_LIST_LIMIT = 50;

/**
 * The balance just after the entry `at`: the cached balance minus every entry newer than it (the
 * ledger's subquery), in one statement, so both are one state of the ledger (which moves them in
 * one transaction). An entry posted meanwhile is in both and cancels out.
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
    .select(sumNewerThanOf(db, clientId, participantId, at).as('newer'))
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
  return row && Number(row.balance ?? 0) - Number(row.newer ?? 0);
}
