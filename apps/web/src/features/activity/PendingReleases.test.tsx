import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Locale, StatementEntry, UserData } from '@rewards/contract';
import arPending from '@rewards/translations/points-pending.ar.json';
import { renderWithApp } from '../../test/render.tsx';
import { enUS, makeClient, makeUser } from '../../test/fixtures.ts';
import ActivityHistoryPage from './ActivityHistoryPage.tsx';

/** An ISO date with an offset for a moment of the local day (so tests hold in any time zone). */
const at = (year: number, month: number, day: number, hour = 12) => new Date(year, month - 1, day, hour).toISOString();

function renderHistory(pendingPoints: UserData['pendingPoints'], entries: StatementEntry[] = [], locale?: Locale) {
  const request = vi.fn((_method: string, path: string) =>
    // Nothing expires here: the schedule of what expires has its own tests.
    path === '/user/points/expiring'
      ? Promise.resolve({ expiries: [] })
      : Promise.resolve({ accountNumber: '1000001', accountHistoryList: entries }),
  );
  const base = makeClient();
  return renderWithApp(<ActivityHistoryPage />, {
    client: makeClient({
      clientBranding: {
        ...base.clientBranding,
        mediaLabels: [
          ...base.clientBranding.mediaLabels,
          { locale: 'ar', cmText: 'نقاط أكمي', forms: { one: 'نقطة أكمي واحدة', two: 'نقطتا أكمي', few: 'نقاط أكمي', other: 'نقطة أكمي' } },
        ],
      },
    }),
    user: makeUser({ pendingPoints, ...(locale ? { locale } : {}) }),
    request: request as never,
    ...(locale ? { state: { locale, bundles: { [locale.code]: { ...enUS, ...arPending } } } } : {}),
  });
}

const pendingRegion = () => screen.findByRole('region', { name: 'Acme Points pending' });

describe('activity history: points pending (issue 32 §3)', () => {
  it('lists each day on which pending points become available, soonest first, above the statement', async () => {
    renderHistory({
      points: 1251,
      releases: [
        { points: 1250, availableOn: '2027-01-14' },
        { points: 1, availableOn: '2027-02-01' },
      ],
    });
    const section = await pendingRegion();
    expect(within(section).getByText(/not spendable yet/)).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Available on January 14, 20271,250 Acme Points',
      'Available on February 1, 20271 Acme Point',
    ]);
    expect(within(items[0] as HTMLElement).getByText('January 14, 2027')).toHaveAttribute('datetime', '2027-01-14');
    expect(within(section).getByRole('list', { name: 'Acme Points pending, by the day they become available' })).toBeInTheDocument();
    // At the top: before the statement in the page's order.
    const statement = await screen.findByText(/There is no activity on your account yet/);
    expect(section.compareDocumentPosition(statement) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says what is pending beyond the days listed as "Later"', async () => {
    renderHistory({
      points: 700,
      releases: [
        { points: 100, availableOn: '2027-01-14' },
        { points: 200, availableOn: '2027-01-15' },
      ],
    });
    const items = within(await pendingRegion()).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Available on January 14, 2027100 Acme Points',
      'Available on January 15, 2027200 Acme Points',
      'Later400 Acme Points',
    ]);
  });

  it('keeps pending points out of the statement and its running balance, where a return is an ordinary debit', async () => {
    renderHistory({ points: 50, releases: [{ points: 50, availableOn: '2027-01-14' }] }, [
      { date: at(2026, 11, 1), description: 'Store purchases: 2 points per euro in store', amountOrAward: 240 },
      // A return (issue 32 §3): a negative entry of a kind the history does not need to know, its text from the server.
      { date: at(2026, 11, 3), description: 'Return of ord-1: Store purchases: 2 points per euro in store', amountOrAward: -80 },
    ]);
    await pendingRegion();
    const rows = within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells.map(([, description, amount, balance]) => [description, amount, balance])).toEqual([
      // The running balance counts what can be spent: the 50 pending points are not in it.
      ['Return of ord-1: Store purchases: 2 points per euro in store', '-80', '160'],
      ['Store purchases: 2 points per euro in store', '+240', '240'],
    ]);
    expect(within(rows[0] as HTMLElement).getByText('-80')).toHaveClass('activity__debit');
  });

  it('shows nothing when nothing is pending', async () => {
    renderHistory({ points: 0, releases: [] });
    expect(await screen.findByText(/There is no activity on your account yet/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /pending/ })).not.toBeInTheDocument();
  });

  it('in Arabic: the heading, dates and amounts in Arabic, the label in its plural form', async () => {
    renderHistory(
      {
        points: 3,
        releases: [
          { points: 2, availableOn: '2027-01-14' },
          { points: 1, availableOn: '2027-01-20' },
        ],
      },
      [],
      { code: 'ar', dir: 'rtl' },
    );
    const section = await screen.findByRole('region', { name: 'نقاط أكمي قيد الانتظار' });
    const day = (iso: string) => new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`تاريخ الإتاحة ${day('2027-01-14')}${n(2)} نقطتا أكمي`, `تاريخ الإتاحة ${day('2027-01-20')}${n(1)} نقطة أكمي واحدة`]);
  });
});
