import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

// The ledger's face to the others (decision 053): one movement and the cached balance in one
// transaction (store.ts, re-exported below); imports and adjustments are bulk.ts and
// adjustments.ts, an operator's award awards.ts; and the one way a single posting meets the
// database, writeToLedger (decision 093).
export {
  appendLedgerEntry,
  appendLedgerEntryWithBalance,
  InsufficientBalanceError,
  type LedgerKind,
  type LedgerMovement,
} from './store.ts';
// The ledger's reads that other modules' pages and runs are made of (issue 30 §3): the portal's
// statement, the console's participant page, the reports' month sums, the expiry's activity
// dates, a points import's posted references; a subquery where the other module's store reads
// its row and the ledger's figure as one state.
export {
  consoleStatementRows,
  countStatementEntries,
  entriesByReference,
  entryCountOf,
  lastActivityAt,
  lastActivityOf,
  latestEntries,
  ledgerMonthsCreated,
  listStatementEntries,
  listStatementPage,
  pageParticipantsLastActiveBetween,
  postedReferences,
  sumNewerThanOf,
  type ConsoleStatementCursor,
  type LedgerMonthSum,
  type StatementCursor,
} from './entries-store.ts';

/**
 * The one way a single posting meets the database (docs/decisions/093): a redemption, a partner
 * debit, a console or command adjustment, an award, a program API posting or reversal, an event's
 * credit. A posting is a function of a transaction that writes its ledger entry
 * (appendLedgerEntry) and everything that must commit with it (the code's claim, the order, the
 * audit and webhook outbox rows); what it returns is its caller's answer, what it throws its
 * refusal. Its work must only touch the database (no network, no password hash): on SQLite the
 * postings beside it wait for it.
 *
 * On SQLite the postings that arrive together share one real transaction and one commit: the
 * driver's group commit (db/node-sqlite-dialect.ts, decision 014) runs each in a SAVEPOINT of its
 * own inside the open batch, so a refused one (a balance that does not cover it, a code used
 * twice, an external id twice) rolls back alone and its neighbours stay; nobody hears back before
 * the batch's commit (a refusal neither, so the twin that refused it can be read), and a commit
 * that fails fails the whole batch. A second queue here, draining groups of postings into one
 * Kysely transaction, cost more CPU than it saved (decision 093), so the writer hands each
 * posting to that group commit as it comes.
 *
 * On PostgreSQL each posting is its own transaction: concurrent transactions already share WAL
 * flushes there, and the figures asked for nothing more.
 */
export type Posting<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * Posts through the ledger writer: resolves with what `work` returned once its commit is durable,
 * or rejects with what it threw or with the commit's failure.
 */
export function writeToLedger<T>(db: Db, work: Posting<T>): Promise<T> {
  return db.transaction().execute(work);
}
