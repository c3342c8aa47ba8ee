import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatementEntry, StatementReply } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import ActivityHistoryPage from './ActivityHistoryPage.tsx';
import { saveTextFile } from './download.ts';

vi.mock('./download.ts', () => ({ saveTextFile: vi.fn() }));
afterEach(() => vi.mocked(saveTextFile).mockClear());

/** An ISO date with an offset for a moment of the local day (so tests hold in any time zone). */
const at = (year: number, month: number, day: number, hour = 12, minute = 0) => new Date(year, month - 1, day, hour, minute).toISOString();
const entry = (date: string, description: string, amountOrAward: number): StatementEntry => ({ date, description, amountOrAward });

function renderHistory(entries: StatementEntry[] | Error) {
  const request = vi.fn((_method: string, path: string) =>
    // The schedule of what expires (issue 19) has its own tests: nothing expires here.
    path === '/user/points/expiring'
      ? Promise.resolve({ expiries: [] })
      : entries instanceof Error
        ? Promise.reject(entries)
        : Promise.resolve<StatementReply>({ accountNumber: '1000001', accountHistoryList: entries }),
  );
  const view = renderWithApp(<ActivityHistoryPage />, { user: makeUser(), request: request as never });
  return { ...view, user: userEvent.setup() };
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const column = (index: number) => bodyRows().map((row) => within(row).getAllByRole('cell')[index]?.textContent ?? '');
const descriptions = () => column(1);
const header = (name: RegExp) => screen.getByRole('columnheader', { name });
const dateField = (name: 'From' | 'To') => within(screen.getByRole('group', { name }));

/** Types an ISO date into the From or To field as a participant does: day, month, then year. */
async function enterDate(user: ReturnType<typeof userEvent.setup>, name: 'From' | 'To', iso: string) {
  const [year = '', month = '', day = ''] = iso.split('-');
  const field = dateField(name);
  await user.clear(field.getByLabelText('Day'));
  await user.type(field.getByLabelText('Day'), String(Number(day)));
  await user.selectOptions(field.getByLabelText('Month'), String(Number(month)));
  await user.clear(field.getByLabelText('Year'));
  await user.type(field.getByLabelText('Year'), year);
}

/** Forty days of January–February 2026, one entry a day at noon: day n earns n × 10 points. */
const fortyDays = Array.from({ length: 40 }, (_, n) => entry(at(2026, 1, 1 + n), `Award ${n + 1}`, (n + 1) * 10));

describe('activity history: the statement (spec sections 2 and 4)', () => {
  it("asks for the signed-in participant's statement in the current language and shows newest first", async () => {
    const { request } = renderHistory(fortyDays);
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('GET', '/user/account/statement?username=demo&locale=en-US');
    expect(screen.getByRole('heading', { level: 1, name: 'Activity history' })).toBeInTheDocument();
    expect(screen.getByText('Account 1000001')).toBeInTheDocument();
    expect(header(/Date/)).toHaveAttribute('aria-sort', 'descending');
    expect(descriptions().slice(0, 2)).toEqual(['Award 40', 'Award 39']);
  });

  it('sorts a new column descending first, toggles on the next click, and compares amounts as numbers', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 1), 'Bonus', 900),
      entry(at(2026, 3, 2), 'Redemption', -1200),
      entry(at(2026, 3, 3), 'Catalog', 10_000),
      entry(at(2026, 3, 4), 'Award', 50),
    ]);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: /Points/ }));
    expect(header(/Points/)).toHaveAttribute('aria-sort', 'descending');
    expect(header(/Date/)).not.toHaveAttribute('aria-sort');
    expect(column(2)).toEqual(['+10,000', '+900', '+50', '-1,200']);
    await user.click(screen.getByRole('button', { name: /Points/ }));
    expect(header(/Points/)).toHaveAttribute('aria-sort', 'ascending');
    expect(column(2)).toEqual(['-1,200', '+50', '+900', '+10,000']);

    await user.click(screen.getByRole('button', { name: /Description/ }));
    expect(header(/Description/)).toHaveAttribute('aria-sort', 'descending');
    expect(descriptions()).toEqual(['Redemption', 'Catalog', 'Bonus', 'Award']);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(descriptions()).toEqual(['Award', 'Catalog', 'Redemption', 'Bonus']);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(header(/Date/)).toHaveAttribute('aria-sort', 'ascending');
    expect(descriptions()).toEqual(['Bonus', 'Redemption', 'Catalog', 'Award']);
  });

  it('keeps equal amounts in one order whatever was sorted before: by amount, by date newest first, by amount again', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 1), 'First fifty', 50),
      entry(at(2026, 3, 2), 'Second fifty', 50),
      entry(at(2026, 3, 3), 'Refund', -20),
      entry(at(2026, 3, 4), 'Third fifty', 50),
    ]);
    await screen.findByRole('table');
    const points = () => screen.getByRole('button', { name: /Points/ });
    await user.click(points());
    // Descending is the ascending order reversed, ties included: the latest of equal amounts first.
    expect(descriptions()).toEqual(['Third fifty', 'Second fifty', 'First fifty', 'Refund']);
    await user.click(points());
    expect(descriptions()).toEqual(['Refund', 'First fifty', 'Second fifty', 'Third fifty']);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(header(/Date/)).toHaveAttribute('aria-sort', 'descending');
    expect(header(/Points/)).not.toHaveAttribute('aria-sort');
    expect(descriptions()).toEqual(['Third fifty', 'Refund', 'Second fifty', 'First fifty']);
    await user.click(points());
    expect(descriptions()).toEqual(['Third fifty', 'Second fifty', 'First fifty', 'Refund']);
  });

  it('sorts from the keyboard too', async () => {
    const { user } = renderHistory([entry(at(2026, 3, 1), 'Small', 5), entry(at(2026, 3, 2), 'Big', 500)]);
    await screen.findByRole('table');
    screen.getByRole('button', { name: /Points/ }).focus();
    await user.keyboard('{Enter}');
    expect(descriptions()).toEqual(['Big', 'Small']);
    await user.keyboard(' ');
    expect(descriptions()).toEqual(['Small', 'Big']);
  });

  it('shows the balance after each entry, counted in time order whatever the order shown', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 3), 'Third', -300),
      entry(at(2026, 3, 1), 'First', 1000),
      entry(at(2026, 3, 2), 'Second', 250),
    ]);
    await screen.findByRole('table');
    expect(column(3)).toEqual(['950', '1,250', '1,000']);
    await user.click(screen.getByRole('button', { name: /Points/ }));
    expect(descriptions()).toEqual(['First', 'Second', 'Third']);
    expect(column(3)).toEqual(['1,000', '1,250', '950']);
  });

  it('shows 15 rows a page with a pager, and a new date filter goes back to page 1', async () => {
    const { user } = renderHistory(fortyDays);
    await screen.findByRole('table');
    expect(bodyRows()).toHaveLength(15);
    const pager = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pager.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(pager.getByRole('button', { name: 'Previous page' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(pager.getByRole('button', { name: 'Next page' }));
    expect(pager.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(descriptions()[0]).toBe('Award 25');
    await user.click(pager.getByRole('button', { name: 'Last page' }));
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 31–40 of 40 entries');
    // Focus stays on the pager button it was on, now unavailable, and a click does nothing.
    expect(pager.getByRole('button', { name: 'Last page' })).toHaveFocus();
    expect(pager.getByRole('button', { name: 'Next page' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(pager.getByRole('button', { name: 'Next page' }));
    expect(pager.getByText('Page 3 of 3')).toBeInTheDocument();

    await enterDate(user, 'From', '2026-01-01');
    await enterDate(user, 'To', '2026-01-31');
    expect(within(screen.getByRole('navigation', { name: 'Pages' })).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–15 of 31 entries');
  });

  it('sorting also goes back to page 1', async () => {
    const { user } = renderHistory(fortyDays);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: /Points/ }));
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(descriptions()[0]).toBe('Award 40');
  });

  it('reads a start date alone as that whole day, from midnight to its last minute', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 9, 23, 59), 'Day before', 1),
      entry(at(2026, 3, 10, 0, 0), 'Midnight', 2),
      entry(at(2026, 3, 10, 13, 30), 'Afternoon', 3),
      entry(at(2026, 3, 10, 23, 59), 'Last minute', 4),
      entry(at(2026, 3, 11, 0, 0), 'Next day', 5),
    ]);
    await screen.findByRole('table');
    await enterDate(user, 'From', '2026-03-10');
    expect(descriptions()).toEqual(['Last minute', 'Afternoon', 'Midnight']);
  });

  it('runs a range from the start of its first day to the end of its last, inclusive, and clears', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 9, 23, 59), 'Before', 1),
      entry(at(2026, 3, 10, 0, 0), 'First day', 2),
      entry(at(2026, 3, 11, 12, 0), 'Middle', 3),
      entry(at(2026, 3, 12, 23, 59), 'Last day', 4),
      entry(at(2026, 3, 13, 0, 0), 'After', 5),
    ]);
    await screen.findByRole('table');
    await enterDate(user, 'From', '2026-03-10');
    await enterDate(user, 'To', '2026-03-12');
    expect(descriptions()).toEqual(['Last day', 'Middle', 'First day']);
    await user.click(screen.getByRole('button', { name: 'Clear dates' }));
    expect(descriptions()).toHaveLength(5);
    expect(dateField('From').getByLabelText('Month')).toHaveFocus();
  });

  it('keeps the first day on or before the last: a later one is pointed out and left out of the range', async () => {
    const { user } = renderHistory(fortyDays);
    await screen.findByRole('table');
    await enterDate(user, 'To', '2026-01-10');
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–10 of 10 entries');
    await enterDate(user, 'From', '2026-01-20');
    expect(screen.getByText('Enter a date on or before January 10, 2026.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–10 of 10 entries');
    // Moving the last day later makes the first one fit: the range then holds both.
    await enterDate(user, 'To', '2026-01-25');
    expect(screen.queryByText(/Enter a date/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–6 of 6 entries');
  });

  it('clears a half-typed date too, and says what is missing in a date left half typed', async () => {
    const { user } = renderHistory(fortyDays);
    await screen.findByRole('table');
    await user.type(dateField('From').getByLabelText('Day'), '12');
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByText('Enter a day, a month and a year.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('of 40 entries');
    await user.click(screen.getByRole('button', { name: 'Clear dates' }));
    expect(dateField('From').getByLabelText('Day')).toHaveValue('');
    expect(screen.queryByText(/Enter a day/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear dates' })).not.toBeInTheDocument();
  });

  it('says so when no entry falls between the dates chosen', async () => {
    const { user } = renderHistory(fortyDays);
    await screen.findByRole('table');
    await enterDate(user, 'From', '2025-06-01');
    expect(screen.getByRole('status')).toHaveTextContent('There is no activity between these dates.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Download as CSV/ })).toBeDisabled();
  });

  it('shows an empty state to a participant with no history', async () => {
    renderHistory([]);
    expect(await screen.findByText(/There is no activity on your account yet/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
  });

  it('shows what went wrong, and tries again', async () => {
    const failure = new RequestError({ status: 500, errorCode: 10500, responseMessage: 'error.internal', message: 'boom' });
    const { user, request } = renderHistory(failure);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(request.mock.calls.filter(([, path]) => path.startsWith('/user/account/statement'))).toHaveLength(2);
  });

  it('downloads the filtered rows in the order shown as a CSV a spreadsheet reads', async () => {
    const { user } = renderHistory([
      entry(at(2026, 3, 1, 9, 30), 'Award, with a comma', 1500),
      entry(at(2026, 3, 2, 10, 0), '=HYPERLINK("x")', -200),
      entry(at(2026, 3, 3, 11, 15), 'Spot "bonus"', 25),
      entry(at(2026, 4, 1), 'Outside the range', 5),
    ]);
    await screen.findByRole('table');
    await enterDate(user, 'From', '2026-03-01');
    await enterDate(user, 'To', '2026-03-31');
    await user.click(screen.getByRole('button', { name: /Points/ }));
    await user.click(screen.getByRole('button', { name: /Download as CSV/ }));

    await waitFor(() => expect(saveTextFile).toHaveBeenCalledTimes(1));
    const [fileName, text, type] = vi.mocked(saveTextFile).mock.calls[0] ?? [];
    expect(fileName).toMatch(/^activity-1000001-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(type).toBe('text/csv;charset=utf-8');
    expect(text?.startsWith('\uFEFF')).toBe(true);
    expect(text?.slice(1).split('\r\n')).toEqual([
      'Date,Description,Points,Balance after',
      '2026-03-01 09:30:00,"Award, with a comma",1500,1500',
      '2026-03-03 11:15:00,"Spot ""bonus""",25,1325',
      `2026-03-02 10:00:00,"'=HYPERLINK(""x"")",-200,1300`,
      '',
    ]);
  });
});
