import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Locale, UserData } from '@rewards/contract';
import frPending from '@rewards/translations/points-pending.fr-FR.json';
import arPending from '@rewards/translations/points-pending.ar.json';
import { renderWithApp } from '../../test/render.tsx';
import { enUS, makeClient, makeUser } from '../../test/fixtures.ts';
import HomePage from '../../app/HomePage.tsx';
import { localDayFromToday } from '../../api/expiry-schedule.ts';

type Pending = UserData['pendingPoints'];

const arabic: Locale = { code: 'ar', dir: 'rtl' };
const french: Locale = { code: 'fr-FR', dir: 'ltr' };
/** The demo program's Arabic label: six plural forms. */
const arabicLabel = {
  locale: 'ar',
  cmText: 'نقاط أكمي',
  forms: { zero: 'نقطة أكمي', one: 'نقطة أكمي واحدة', two: 'نقطتا أكمي', few: 'نقاط أكمي', many: 'نقطة أكمي', other: 'نقطة أكمي' },
};

/** Home with a balance (or another) and what is pending; the expiry schedule answers nothing expires. */
function renderHome(pendingPoints: Pending, options: { balance?: number | null; locale?: Locale; bundle?: Record<string, string> } = {}) {
  const { balance = 12500, locale, bundle } = options;
  const base = makeClient();
  const client = makeClient({
    clientBranding: { ...base.clientBranding, mediaLabels: [...base.clientBranding.mediaLabels, arabicLabel] },
  });
  return renderWithApp(<HomePage />, {
    client,
    user: makeUser({ accountBalance: balance, pendingPoints, ...(locale ? { locale } : {}) }),
    request: ((_method: string, path: string) =>
      path === '/user/points/expiring' ? Promise.resolve({ expiries: [] }) : Promise.reject(new Error('no fake answer'))) as never,
    ...(locale && bundle ? { state: { locale, bundles: { [locale.code]: { ...enUS, ...bundle } } } } : {}),
  });
}

const line = (container: HTMLElement) => container.querySelector('.points__pending');

/** The day as the line writes it: a calendar day, never shifted by the browser's zone. */
const longDay = (locale: string, day: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

describe('home: points pending (issue 32 §3)', () => {
  it('says how many points are pending and the day they become available', () => {
    const { container } = renderHome({ points: 250, releases: [{ points: 250, availableOn: '2027-01-14' }] });
    expect(line(container)).toHaveTextContent('250 Acme Points pending, available on January 14, 2027');
    // One day: nothing more to see.
    expect(screen.queryByRole('link', { name: 'See all dates' })).not.toBeInTheDocument();
    // Beside the balance, which stays what can be spent.
    expect(screen.getByRole('link', { name: '12,500' })).toBeInTheDocument();
  });

  it('says the total and what comes first when points come on several days, with a link to every date', () => {
    const { container } = renderHome({
      points: 1250,
      releases: [
        { points: 100, availableOn: '2027-01-14' },
        { points: 1150, availableOn: '2027-02-01' },
      ],
    });
    const pending = line(container) as HTMLElement;
    expect(pending).toHaveTextContent(
      '1,250 Acme Points pending; the first 100 Acme Points become available on January 14, 2027 See all dates',
    );
    expect(within(pending).getByRole('link', { name: 'See all dates' })).toHaveAttribute('href', '/activity-history');
  });

  it('agrees with a single point', () => {
    const single = renderHome({ points: 1, releases: [{ points: 1, availableOn: '2027-03-01' }] });
    expect(line(single.container)).toHaveTextContent('1 Acme Point pending, available on March 1, 2027');
    single.unmount();
    const first = renderHome({
      points: 41,
      releases: [
        { points: 1, availableOn: '2027-03-01' },
        { points: 40, availableOn: '2027-03-02' },
      ],
    });
    expect(line(first.container)).toHaveTextContent('41 Acme Points pending; 1 Acme Point becomes available on March 1, 2027');
  });

  it('keeps the calendar day whatever the time zone: the last day of a year stays that day', () => {
    const { container } = renderHome({ points: 40, releases: [{ points: 40, availableOn: '2026-12-31' }] });
    expect(line(container)).toHaveTextContent('available on December 31, 2026');
  });

  it('shows nothing when nothing is pending, nor when the balance cannot be read', () => {
    const none = renderHome({ points: 0, releases: [] });
    expect(line(none.container)).toBeNull();
    expect(screen.queryByText(/pending/)).not.toBeInTheDocument();
    none.unmount();
    const unavailable = renderWithApp(<HomePage />, {
      user: makeUser({
        accountBalanceUnavailable: true,
        pendingPoints: { points: 50, releases: [{ points: 50, availableOn: '2027-01-14' }] },
      }),
    });
    expect(line(unavailable.container)).toBeNull();
  });

  it('shows what is pending to a newcomer whose first points are all pending, and to one who spent everything', () => {
    for (const balance of [null, 0]) {
      const view = renderHome({ points: 80, releases: [{ points: 80, availableOn: '2027-01-14' }] }, { balance });
      expect(line(view.container)).toHaveTextContent('80 Acme Points pending, available on January 14, 2027');
      view.unmount();
    }
  });

  it('comes right under the balance, before what expires soon', async () => {
    const soon = localDayFromToday(10);
    const { container } = renderWithApp(<HomePage />, {
      user: makeUser({ pendingPoints: { points: 30, releases: [{ points: 30, availableOn: '2027-01-14' }] } }),
      request: ((_method: string, path: string) =>
        path === '/user/points/expiring'
          ? Promise.resolve({ expiries: [{ date: soon, points: 5 }] })
          : Promise.reject(new Error('no fake answer'))) as never,
    });
    expect(await screen.findByText(/expire on/)).toBeInTheDocument();
    const lines = [...container.querySelectorAll('.points__message, .points__pending, .points__expiring')].map((el) => el.className);
    expect(lines).toEqual(['points__message', 'points__pending', 'points__expiring']);
  });

  it('reads a user kept by a portal from before pending points as having none', () => {
    const old = makeUser();
    delete (old as Partial<UserData>).pendingPoints;
    const { container } = renderWithApp(<HomePage />, { user: old });
    expect(line(container)).toBeNull();
  });

  it('says when more is pending than the days listed, without a date it does not know', () => {
    const { container } = renderHome({ points: 90, releases: [] });
    expect(line(container)).toHaveTextContent(/^90 Acme Points pending$/);
  });

  it('in French: agrees with the amount, and writes the date the French way', () => {
    const { container } = renderHome(
      {
        points: 1,
        releases: [{ points: 1, availableOn: '2027-01-14' }],
      },
      { locale: french, bundle: frPending },
    );
    expect(line(container)).toHaveTextContent('1 Point Acme en attente, disponible le 14 janvier 2027');
  });

  it('in French, on several days: "dont" the first amount, agreeing with it', () => {
    const { container } = renderHome(
      {
        points: 250,
        releases: [
          { points: 1, availableOn: '2027-01-14' },
          { points: 249, availableOn: '2027-01-20' },
        ],
      },
      { locale: french, bundle: frPending },
    );
    expect(line(container)).toHaveTextContent(
      /^250 Points Acme en attente, dont 1 Point Acme disponible le 14 janvier 2027 Voir toutes les dates$/,
    );
  });

  it('in Arabic: the plural form of the label for the amount, Arabic digits and the date in Arabic', () => {
    const { container } = renderHome(
      {
        points: 250,
        releases: [
          { points: 2, availableOn: '2027-01-14' },
          { points: 248, availableOn: '2027-01-20' },
        ],
      },
      { locale: arabic, bundle: arPending },
    );
    const amount = new Intl.NumberFormat('ar').format(250);
    const two = new Intl.NumberFormat('ar').format(2);
    // 250 takes the "other" form, 2 the dual.
    expect(line(container)).toHaveTextContent(
      `${amount} نقطة أكمي قيد الانتظار، وأول دفعة (${two} نقطتا أكمي) تُتاح في ${longDay('ar', '2027-01-14')} اعرض كل المواعيد`,
    );
  });
});
