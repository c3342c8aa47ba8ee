/**
 * Lots in memory, in spending order (docs/decisions/057): what a run of credits and debits does
 * to a participant's open lots, worked out before anything is written. Pure; the stores write
 * the outcome.
 */

export interface Lot {
  id: string;
  participantId: string;
  earnedOn: string;
  /** Expires at the end of this day; null: no date of its own, spent last. */
  expiresOn: string | null;
  remaining: number;
}

export interface Consumption {
  entryId: string;
  lotId: string;
  amount: number;
}

/**
 * Spending order: the soonest expiry first, lots without a date last, then the oldest earning,
 * then the id (a stable tie-break both engines sort alike: `expires_on is null, expires_on,
 * earned_on, id`).
 */
export function spendingOrder(a: Lot, b: Lot): number {
  if (a.expiresOn !== b.expiresOn) {
    if (a.expiresOn === null) return 1;
    if (b.expiresOn === null) return -1;
    return a.expiresOn < b.expiresOn ? -1 : 1;
  }
  if (a.earnedOn !== b.earnedOn) return a.earnedOn < b.earnedOn ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** One participant's open lots, kept in spending order as credits add to them and debits take from them. */
export class LotBook {
  /** Open lots (remaining > 0), in spending order. */
  readonly #open: Lot[];
  /** Every lot touched, by id, with what remains: the rows to write. */
  readonly touched = new Map<string, Lot>();

  constructor(lots: readonly Lot[]) {
    this.#open = lots.filter((lot) => lot.remaining > 0).sort(spendingOrder);
  }

  get balance(): number {
    return this.#open.reduce((sum, lot) => sum + lot.remaining, 0);
  }

  credit(lot: Lot): void {
    // Binary search for its place: imports add thousands of lots to one book.
    let low = 0;
    let high = this.#open.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (spendingOrder(this.#open[mid]!, lot) <= 0) low = mid + 1;
      else high = mid;
    }
    this.#open.splice(low, 0, lot);
    this.touched.set(lot.id, lot);
  }

  /** Takes `amount` from the first lots in spending order; undefined (and nothing taken) when they do not cover it. */
  debit(entryId: string, amount: number): Consumption[] | undefined {
    let covered = 0;
    let count = 0;
    while (covered < amount && count < this.#open.length) covered += this.#open[count++]!.remaining;
    if (covered < amount) return undefined;
    const consumed: Consumption[] = [];
    let left = amount;
    for (let i = 0; i < count; i += 1) {
      const lot = this.#open[i]!;
      const take = Math.min(lot.remaining, left);
      lot.remaining -= take;
      left -= take;
      consumed.push({ entryId, lotId: lot.id, amount: take });
      this.touched.set(lot.id, lot);
    }
    // Spent lots leave the front; the last one may stay open with what is left.
    const spent = this.#open[count - 1]!.remaining === 0 ? count : count - 1;
    this.#open.splice(0, spent);
    return consumed;
  }
}
