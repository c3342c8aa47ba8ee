import type { StatementEntry } from '@rewards/contract';
import { idleScheduler, type IdleScheduler } from '../../ui/idle-scheduler.ts';

/** One line of the history as the screen uses it: parsed once, with the balance after it. */
export interface StatementRow {
  /** Chronological position: the tie-breaker that keeps every sort stable. */
  index: number;
  date: string;
  time: number;
  description: string;
  amount: number;
  balance: number;
}

export type SortColumn = 'date' | 'description' | 'amount';
export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: SortColumn;
  direction: SortDirection;
}
/** Newest first until the participant picks another order. */
export const DEFAULT_SORT: SortState = { column: 'date', direction: 'descending' };
export const PAGE_SIZE = 15;

/**
 * Dates carry a timezone offset in any of the ISO-8601 spellings (spec section 3): `Z`,
 * `+00:00`, or `+0000`, which not every browser parses. Returns a form Date.parse reads.
 */
export function normaliseDate(date: string): string {
  return date
    .trim()
    .replace(' ', 'T')
    .replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

/**
 * Rows in chronological order, each with the balance after it. The running balance follows
 * time, not the sort shown; entries at the same moment keep the server's order.
 */
export function toRows(entries: readonly StatementEntry[]): StatementRow[] {
  const parsed = entries.map((entry, order) => {
    const date = normaliseDate(entry.date);
    return { order, date, time: Date.parse(date), description: entry.description, amount: entry.amountOrAward };
  });
  parsed.sort((a, b) => a.time - b.time || a.order - b.order);
  let balance = 0;
  return parsed.map((entry, index) => {
    balance += entry.amount;
    return { index, date: entry.date, time: entry.time, description: entry.description, amount: entry.amount, balance };
  });
}

/** Spec section 4: the first click on a new column sorts descending, the next toggles. */
export function nextSort(current: SortState, column: SortColumn): SortState {
  if (current.column !== column) return { column, direction: 'descending' };
  return { column, direction: current.direction === 'descending' ? 'ascending' : 'descending' };
}

/** Each distinct description's place in the locale's order: a long statement repeats a few dozen texts. */
function descriptionRanks(rows: readonly StatementRow[], collator: Intl.Collator): Map<string, number> {
  const distinct = [...new Set(rows.map((row) => row.description))].sort(collator.compare);
  return new Map(distinct.map((description, rank) => [description, rank]));
}

export function sortRows(rows: readonly StatementRow[], sort: SortState, collator: Intl.Collator): StatementRow[] {
  let compare: (a: StatementRow, b: StatementRow) => number;
  if (sort.column === 'date') compare = (a, b) => a.time - b.time;
  else if (sort.column === 'amount') compare = (a, b) => a.amount - b.amount;
  else {
    const ranks = descriptionRanks(rows, collator);
    compare = (a, b) => (ranks.get(a.description) ?? 0) - (ranks.get(b.description) ?? 0);
  }
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * (compare(a, b) || a.index - b.index));
}

/**
 * Each column's ascending order of all rows, sorted once per column and statement: a new
 * direction is the same order reversed (ties break by position both ways, so it is exactly
 * the reverse), and a filter keeps a sorted order as it is. Rows are chronological already.
 */
export function createOrders(rows: readonly StatementRow[], collator: Intl.Collator): (column: SortColumn) => readonly StatementRow[] {
  const orders = new Map<SortColumn, readonly StatementRow[]>([['date', rows]]);
  return (column) => {
    let order = orders.get(column);
    if (!order) {
      order = sortRows(rows, { column, direction: 'ascending' }, collator);
      orders.set(column, order);
    }
    return order;
  };
}

/** The columns' background sorting: within a second even on a busy page. */
const whenIdle: IdleScheduler = idleScheduler(1000);

/**
 * Sorts the other columns while the participant reads the first page, one column an idle
 * period (a few milliseconds each for 10,000 rows), so that even the first click on a header
 * only filters and reverses (decision 033). Returns a function that stops what has not run.
 */
export function prepareOrders(orderOf: (column: SortColumn) => readonly StatementRow[], schedule: IdleScheduler = whenIdle): () => void {
  const columns: SortColumn[] = ['amount', 'description'];
  let cancel = () => {};
  const next = () => {
    const column = columns.shift();
    if (!column) return;
    cancel = schedule(() => {
      orderOf(column);
      next();
    });
  };
  next();
  return () => cancel();
}

/** The rows a sort and a range show, from the precomputed orders: no sorting on a click. */
export function shownRows(
  orderOf: (column: SortColumn) => readonly StatementRow[],
  sort: SortState,
  range: DateRange,
): readonly StatementRow[] {
  const filtered = filterRows(orderOf(sort.column), range);
  return sort.direction === 'ascending' ? filtered : [...filtered].reverse();
}

/** A date range as the two date inputs give it: `YYYY-MM-DD`, or empty. */
export interface DateRange {
  from: string;
  to: string;
}
export const NO_RANGE: DateRange = { from: '', to: '' };

function localDay(value: string): { start: number; end: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  return { start: new Date(year, month, day).getTime(), end: new Date(year, month, day + 1).getTime() - 1 };
}

/**
 * The instants a range covers, in the participant's own time zone (the dates shown are local):
 * from the start of its first day to the end of its last, inclusive. A start alone is that
 * whole day; an end alone is everything up to the end of it; a reversed range is read the
 * right way round.
 */
export function rangeBounds(range: DateRange): { start: number; end: number } | null {
  const from = localDay(range.from);
  const to = localDay(range.to);
  if (from && !to) return from;
  if (!from && to) return { start: -Infinity, end: to.end };
  if (!from || !to) return null;
  return from.start <= to.start ? { start: from.start, end: to.end } : { start: to.start, end: from.end };
}

function filterRows(rows: readonly StatementRow[], range: DateRange): readonly StatementRow[] {
  const bounds = rangeBounds(range);
  if (!bounds) return rows;
  return rows.filter((row) => row.time >= bounds.start && row.time <= bounds.end);
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function pageOf<T>(rows: readonly T[], page: number): readonly T[] {
  return rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}
