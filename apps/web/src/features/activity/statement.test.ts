import { describe, expect, it, vi } from 'vitest';
import {
  createOrders,
  nextSort,
  normaliseDate,
  prepareOrders,
  rangeBounds,
  shownRows,
  sortRows,
  toRows,
  type SortState,
} from './statement.ts';

describe('the statement rules', () => {
  it('reads a date whatever spelling its offset has', () => {
    const moment = Date.parse('2026-03-01T09:30:00.000Z');
    for (const date of [
      '2026-03-01T09:30:00.000Z',
      '2026-03-01T09:30:00.000+00:00',
      '2026-03-01T09:30:00.000+0000',
      '2026-03-01T10:30:00+0100',
      '2026-03-01 09:30:00Z',
    ]) {
      expect([date, Date.parse(normaliseDate(date))]).toEqual([date, moment]);
    }
  });

  it('counts the running balance in time order, keeping the server order for entries at the same moment', () => {
    const rows = toRows([
      { date: '2026-03-02T00:00:00Z', description: 'later', amountOrAward: -5 },
      { date: '2026-03-01T00:00:00Z', description: 'same moment, first', amountOrAward: 10 },
      { date: '2026-03-01T00:00:00+00:00', description: 'same moment, second', amountOrAward: 20 },
    ]);
    expect(rows.map((r) => [r.description, r.balance])).toEqual([
      ['same moment, first', 10],
      ['same moment, second', 30],
      ['later', 25],
    ]);
  });

  it('sorts a new column descending and toggles the same one', () => {
    expect(nextSort({ column: 'date', direction: 'descending' }, 'amount')).toEqual({ column: 'amount', direction: 'descending' });
    expect(nextSort({ column: 'amount', direction: 'descending' }, 'amount')).toEqual({ column: 'amount', direction: 'ascending' });
    expect(nextSort({ column: 'amount', direction: 'ascending' }, 'amount')).toEqual({ column: 'amount', direction: 'descending' });
  });

  it('reads a reversed range the right way round and an end alone as everything up to that day', () => {
    const forward = rangeBounds({ from: '2026-03-10', to: '2026-03-12' });
    expect(rangeBounds({ from: '2026-03-12', to: '2026-03-10' })).toEqual(forward);
    expect(rangeBounds({ from: '', to: '2026-03-12' })).toEqual({ start: -Infinity, end: forward?.end });
    expect(rangeBounds({ from: '', to: '' })).toBeNull();
  });

  it('shows from the orders sorted once exactly what sorting the filtered rows gives', () => {
    const descriptions = ['Bonus', 'bonus', 'Order', 'Code', 'Ärger'];
    const entries = Array.from({ length: 400 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 0, 1 + (i % 50), i % 3)).toISOString(),
      description: descriptions[i % descriptions.length] ?? '',
      amountOrAward: ((i * 37) % 23) - 11,
    }));
    const rows = toRows(entries);
    const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });
    const orderOf = createOrders(rows, collator);
    const ranges = [
      { from: '', to: '' },
      { from: '2026-01-10', to: '2026-01-20' },
      { from: '2026-01-15', to: '' },
    ];
    for (const column of ['date', 'description', 'amount'] as const) {
      for (const direction of ['ascending', 'descending'] as const) {
        for (const range of ranges) {
          const sort: SortState = { column, direction };
          const expected = sortRows(
            rows.filter((row) => shownRows(() => rows, { column: 'date', direction: 'ascending' }, range).includes(row)),
            sort,
            collator,
          );
          expect(shownRows(orderOf, sort, range).map((row) => row.index)).toEqual(expected.map((row) => row.index));
        }
      }
    }
  });

  it('sorts the other columns one idle period at a time before the first click, and stops when the table goes', () => {
    const rows = toRows([
      { date: '2026-03-01T09:00:00Z', description: 'Bonus', amountOrAward: 50 },
      { date: '2026-03-02T09:00:00Z', description: 'Award', amountOrAward: 50 },
      { date: '2026-03-03T09:00:00Z', description: 'Catalog', amountOrAward: -20 },
    ]);
    const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });
    const orderOf = vi.fn(createOrders(rows, collator));
    const idle: Array<() => void> = [];
    const schedule = (task: () => void) => {
      idle.push(task);
      return () => idle.splice(idle.indexOf(task), 1);
    };

    prepareOrders(orderOf, schedule);
    // One column per idle period: nothing sorted yet, one task waiting.
    expect([orderOf.mock.calls.length, idle.length]).toEqual([0, 1]);
    idle.shift()?.();
    expect(orderOf.mock.calls.map(([column]) => column)).toEqual(['amount']);
    idle.shift()?.();
    expect(orderOf.mock.calls.map(([column]) => column)).toEqual(['amount', 'description']);
    expect(idle).toEqual([]);
    // A click then gets the order prepared, the same one it would have sorted; ties keep time order.
    const amounts = orderOf('amount');
    expect(orderOf('amount')).toBe(amounts);
    expect(amounts.map((row) => row.description)).toEqual(['Catalog', 'Bonus', 'Award']);

    const stop = prepareOrders(orderOf, schedule);
    orderOf.mockClear();
    stop();
    expect([idle.length, orderOf.mock.calls.length]).toEqual([0, 0]);
  });
});
