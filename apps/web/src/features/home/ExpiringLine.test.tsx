import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ExpiryScheduleReply } from '@rewards/contract';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import HomePage from '../../app/HomePage.tsx';
import { localDayFromToday } from '../../api/expiry-schedule.ts';

function renderHome(expiries: ExpiryScheduleReply['expiries'], balance = 12500) {
  const request = vi.fn((_method: string, path: string) =>
    path === '/user/points/expiring' ? Promise.resolve({ expiries }) : Promise.reject(new Error('no fake answer')),
  );
  return renderWithApp(<HomePage />, { user: makeUser({ accountBalance: balance }), request: request as never });
}

/** The date as the line writes it: a calendar day, never shifted by the browser's zone. */
const longDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

describe('home: what expires soon (issue 19)', () => {
  it('says how many points expire on the soonest day within 90 days', async () => {
    const day = localDayFromToday(20);
    renderHome([{ date: day, points: 1250 }]);
    expect(await screen.findByText(`1,250 Acme Points expire on ${longDay(day)}`)).toBeInTheDocument();
    // One day only: nothing more to see.
    expect(screen.queryByRole('link', { name: 'See what expires when' })).not.toBeInTheDocument();
  });

  it('agrees with a single point, and links to the schedule when more days follow', async () => {
    const [first, second] = [localDayFromToday(3), localDayFromToday(200)];
    renderHome([
      { date: first, points: 1 },
      { date: second, points: 40 },
    ]);
    expect(await screen.findByText(`1 Acme Point expires on ${longDay(first)}`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See what expires when' })).toHaveAttribute('href', '/activity-history');
  });

  it('says nothing when the soonest expiry is more than 90 days away, or nothing expires', async () => {
    const far = renderHome([{ date: localDayFromToday(91), points: 300 }]);
    await waitFor(() => expect(far.request).toHaveBeenCalledWith('GET', '/user/points/expiring'));
    expect(screen.queryByText(/expire/)).not.toBeInTheDocument();
    far.unmount();
    const none = renderHome([]);
    await waitFor(() => expect(none.request).toHaveBeenCalledWith('GET', '/user/points/expiring'));
    expect(screen.queryByText(/expire/)).not.toBeInTheDocument();
  });

  it('does not ask when there is no balance to expire', async () => {
    const { request } = renderHome([{ date: localDayFromToday(5), points: 10 }], 0);
    expect(await screen.findByText(/You have used all your Acme Points/)).toBeInTheDocument();
    expect(request).not.toHaveBeenCalledWith('GET', '/user/points/expiring');
  });
});
