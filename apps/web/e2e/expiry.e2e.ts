// Points that expire, as the participant sees them (issue 19): the line under the balance on
// home in English and Arabic, and the schedule and the expiry entry in the activity history.
import { expect, inject } from 'vitest';
import {
  acknowledgeCookieNotice,
  chooseLanguage,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';
import { addExpiringParticipant } from '../../../test-support/e2e/expiry.ts';
import { unique } from '../../../test-support/e2e/participants.ts';

/** A calendar day as the page writes it in a language: from its own midnight in UTC, so never a day off. */
const longDay = (locale: string, day: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

test('a participant with points expiring in 20 days is told on home, in English and Arabic, and sees what expires when in her history', async ({
  page,
}) => {
  const erin = await addExpiringParticipant(inject('databaseUrl'), `expiring-${unique()}`);
  const [soon, later] = erin.expiries;
  if (!soon || !later) throw new Error('the fixture has two expiries');

  await signIn(page, erin.username);
  await acknowledgeCookieNotice(page);
  const points = page.getByRole('region', { name: /Acme Points/ });
  // By its class rather than the region's name, which changes with the language.
  const line = page.getByRole('main').locator('.points__expiring');
  await expectVisible(line);
  await expect.poll(() => line.textContent()).toBe(`1,250 Acme Points expire on ${longDay('en-US', soon.date)} See what expires when`);
  await expectNoSeriousA11yViolations(page);

  // The soonest date never stands alone: the link opens the schedule with every day.
  await points.getByRole('link', { name: 'See what expires when' }).click();
  await expectPath(page, '/activity-history');
  const dialog = page.getByRole('dialog');
  const schedule = dialog.getByRole('region', { name: 'Acme Points expiring' });
  await expectVisible(schedule);
  expect(await schedule.getByRole('listitem').allTextContents()).toEqual([
    `Expires on ${longDay('en-US', soon.date)}1,250 Acme Points`,
    `Expires on ${longDay('en-US', later.date)}400 Acme Points`,
  ]);
  // The expiry itself is an entry of the history like any other.
  const expiredRow = dialog.locator('tbody tr', { hasText: 'Points expired' });
  await expectVisible(expiredRow);
  await expect.poll(() => expiredRow.locator('td').nth(2).textContent()).toMatch(/[-−]75/);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectPath(page, '/home');

  // In Arabic: the same line, right to left, with the browser's own Arabic number and date.
  await chooseLanguage(page, /العربية|arabic/i);
  await page.waitForFunction(() => document.documentElement.lang === 'ar' && document.documentElement.dir === 'rtl');
  const [amount, day] = await page.evaluate(
    (date) => [
      new Intl.NumberFormat('ar').format(1_250),
      new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)),
    ],
    soon.date,
  );
  // 1,250 takes Arabic's "many" form of the media label.
  await expect.poll(() => line.locator('span').first().textContent()).toBe(`تنتهي صلاحية ${amount} نقطة أكمي في ${day}`);
  expect(await line.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await expectVisible(line.getByRole('link', { name: 'اعرف ما تنتهي صلاحيته ومتى' }));
  await expectNoSeriousA11yViolations(page);
});
