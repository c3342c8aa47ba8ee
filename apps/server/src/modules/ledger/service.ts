// The ledger's face to the others: one movement and the cached balance in one transaction
// (store.ts); imports and adjustments are bulk.ts and adjustments.ts (decision 053).
export { appendLedgerEntry, InsufficientBalanceError, type LedgerKind, type LedgerMovement } from './store.ts';
