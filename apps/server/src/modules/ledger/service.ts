// The ledger's face to the others: one movement and the cached balance in one transaction
// (store.ts); imports and adjustments are bulk.ts and adjustments.ts, an operator's award
// awards.ts (decision 053). Every single posting goes through the ledger writer (writer.ts,
// decision 093), which commits the postings that arrive together at once.
export { writeToLedger, type Posting } from './writer.ts';
export {
  appendLedgerEntry,
  appendLedgerEntryWithBalance,
  InsufficientBalanceError,
  type LedgerKind,
  type LedgerMovement,
} from './store.ts';
