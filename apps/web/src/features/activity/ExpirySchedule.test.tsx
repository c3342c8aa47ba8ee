import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ExpiryScheduleReply } from '@rewards/contract';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import ActivityHistoryPage from './ActivityHistoryPage.tsx';

function renderWith(expiries: ExpiryScheduleReply['expiries'] | Error) {
  const request = vi.fn((_method: string, path: string) =>
    path === '/user/points/expiring'
      ? expiries instanceof Error
        ? Promise.reject(expiries)
        : Promise.resolve({ expiries })
      : Promise.resolve({ accountNumber: '1000001', accountHistoryList: [] }),
  );
  return renderWithApp(<ActivityHistoryPage />, { user: makeUser(), request: request as never });
}

describe('activity history: what expires when (issue 19)', () => {
  it('lists every day with its amount, soonest first, each day as the calendar day it is', async () => {
    renderWith([
      { date: '2027-01-31', points: 1250 },
      { date: '2027-03-01', points: 1 },
      { date: '2027-11-30', points: 500 },
    ]);
    const section = await screen.findByRole('region', { name: 'Acme Points expiring' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Expires on January 31, 20271,250 Acme Points',
      'Expires on March 1, 20271 Acme Point',
      'Expires on November 30, 2027500 Acme Points',
    ]);
    expect(within(items[0] as HTMLElement).getByText('January 31, 2027')).toHaveAttribute('datetime', '2027-01-31');
    expect(within(section).getByRole('list', { name: 'Acme Points expiring in the coming twelve months' })).toBeInTheDocument();
  });

  it('shows nothing when nothing expires, or when the schedule cannot be read', async () => {
    for (const answer of [[], new Error('down')] as const) {
      const view = renderWith(answer instanceof Error ? answer : [...answer]);
      expect(await screen.findByText(/There is no activity on your account yet/)).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: /expiring/ })).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
