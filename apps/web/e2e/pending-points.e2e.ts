// Points pending, as the participant sees them (issue 32 §3): a shop posts an event through the
// program API, the client's earning rules hold part of what it earns for 14 and 30 days; home
// says what is pending beside the balance, in English and in Arabic (right to left), and the
// history lists each day apart from the statement, whose running balance counts only what can be
// spent. The participant, the rules (of an event type of the story's own) and the key are the
// story's own (decision 071).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { UserData } from '@rewards/contract';
import {
  acknowledgeCookieNotice,
  chooseLanguage,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  newParticipant,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import { unique } from '../../../test-support/e2e/participants.ts';

/** A calendar day as the page writes it in a language: from its own midnight in UTC, so never a day off. */
const longDay = (locale: string, day: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** Writes the client's earning rules as a program manager does, with `rewards rules create`. */
async function createRules(rules: object[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rewards-rules-'));
  try {
    for (const [index, rule] of rules.entries()) {
      const file = join(dir, `rule-${index}.json`);
      await writeFile(file, JSON.stringify(rule));
      await rewardsCli(inject('databaseUrl'), ['rules', 'create', '--client', 'acme', '--file', file, '--reason', 'browser test']);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A program API key of the story's own, as `rewards api-keys create` prints it once. */
async function newEventsKey(name: string): Promise<string> {
  const printed = await rewardsCli(inject('databaseUrl'), [
    'api-keys',
    'create',
    '--client',
    'acme',
    '--name',
    name,
    '--scopes',
    'events:write',
    '--reason',
    'browser test',
  ]);
  const key = /^\s{2}(\S+)$/m.exec(printed)?.[1];
  if (!key) throw new Error(`no key in: ${printed}`);
  return key;
}

/** POST events of the program API, as the client's shop sends what a participant did. */
async function postEvent(key: string, event: object): Promise<{ points: number; pendingPoints: number }> {
  const reply = await fetch(`${inject('baseUrl')}/api/program/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(event),
  });
  const body = (await reply.json()) as { points: number; pendingPoints: number };
  expect(reply.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** What is pending in the user data the portal holds for the session (the days the server computed). */
const pendingInSession = (page: Page) =>
  page.evaluate(() => (JSON.parse(sessionStorage.getItem('userState') ?? '{}') as Partial<UserData>).pendingPoints);

test('a participant whose purchase earned pending points sees them beside her balance and in her history, in English and Arabic', async ({
  page,
}) => {
  const tag = unique();
  const type = `e2e.visit-${tag}`;
  await createRules([
    {
      id: `visit-now-${tag}`,
      name: 'Store visit',
      event: type,
      earn: { points: 60 },
      text: { 'en-US': '60 points a visit', ar: '٦٠ نقطة لكل زيارة' },
    },
    { id: `visit-14-${tag}`, name: 'Visit bonus', event: type, earn: { points: 100 }, pendingDays: 14 },
    { id: `visit-30-${tag}`, name: 'Loyal visit', event: type, earn: { points: 150 }, pendingDays: 30 },
  ]);
  const key = await newEventsKey(`pending story ${tag}`);
  const { username } = await newParticipant({ firstName: 'Pia', points: 500 });
  const earned = await postEvent(key, { id: `visit-${tag}`, type, username, occurredAt: new Date().toISOString() });
  expect(earned).toMatchObject({ points: 60, pendingPoints: 250 });
  // A second visit, returned in whole: its pending points go first, then its 60 from the balance.
  await postEvent(key, { id: `visit2-${tag}`, type, username, occurredAt: new Date().toISOString() });
  await postEvent(key, {
    id: `return-${tag}`,
    type: 'return',
    username,
    occurredAt: new Date().toISOString(),
    references: { originalEventId: `visit2-${tag}` },
  });

  await signIn(page, username);
  await acknowledgeCookieNotice(page);
  const pending = await pendingInSession(page);
  expect(pending?.points).toBe(250);
  expect(pending?.releases.map((release) => release.points)).toEqual([100, 150]);
  const [soon, later] = pending?.releases ?? [];
  if (!soon || !later) throw new Error('two release days');

  // Home: the balance is what can be spent; the line under it says what is pending, and when.
  const points = page.getByRole('main').locator('.points');
  await expectVisible(points.getByRole('link', { name: '560' }));
  const line = points.locator('.points__pending');
  await expect
    .poll(() => line.textContent())
    .toBe(`250 Acme Points pending; the first 100 Acme Points become available on ${longDay('en-US', soon.availableOn)} See all dates`);
  await expectNoSeriousA11yViolations(page);

  // The history: every day, apart from the statement and its running balance.
  await line.getByRole('link', { name: 'See all dates' }).click();
  await expectPath(page, '/activity-history');
  const dialog = page.getByRole('dialog');
  const section = dialog.getByRole('region', { name: 'Acme Points pending' });
  await expectVisible(section);
  expect(await section.getByRole('listitem').allTextContents()).toEqual([
    `Available on ${longDay('en-US', soon.availableOn)}100 Acme Points`,
    `Available on ${longDay('en-US', later.availableOn)}150 Acme Points`,
  ]);
  const rows = dialog.locator('tbody tr');
  await expectVisible(rows.first());
  // Newest first: the return is an entry like any other, its words from the server, taking back what
  // the balance had of the returned visit; the newest balance is 500 + 60, the 250 pending not in it.
  const cells = async () =>
    Promise.all((await rows.all()).map(async (row) => (await row.locator('td').allTextContents()).slice(1).join(' | ')));
  await expect
    .poll(cells)
    .toEqual([
      expect.stringMatching(new RegExp(`^Return of visit2-${tag}: .*Store visit.* \\| [-−]60 \\| 560$`)),
      'Store visit: 60 points a visit | +60 | 620',
      'Store visit: 60 points a visit | +60 | 560',
      'Welcome to the program | +500 | 500',
    ]);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectPath(page, '/home');

  // In Arabic: right to left, the browser's own Arabic numbers and dates, the label's plural forms.
  await chooseLanguage(page, /العربية|arabic/i);
  await page.waitForFunction(() => document.documentElement.lang === 'ar' && document.documentElement.dir === 'rtl');
  const [total, first, rest, day, laterDay] = await page.evaluate(
    ([soonDay, lateDay]) => [
      new Intl.NumberFormat('ar').format(250),
      new Intl.NumberFormat('ar').format(100),
      new Intl.NumberFormat('ar').format(150),
      new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${soonDay}T00:00:00Z`)),
      new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${lateDay}T00:00:00Z`)),
    ],
    [soon.availableOn, later.availableOn],
  );
  // 250 and 100 both take the form of 100 and over.
  await expect
    .poll(() => line.locator('span').first().textContent())
    .toBe(`${total} نقطة أكمي قيد الانتظار، وأول دفعة (${first} نقطة أكمي) تُتاح في ${day}`);
  expect(await line.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await expectVisible(line.getByRole('link', { name: 'اعرض كل المواعيد' }));
  await expectNoSeriousA11yViolations(page);

  await line.getByRole('link', { name: 'اعرض كل المواعيد' }).click();
  await expectPath(page, '/activity-history');
  const arabicSection = page.getByRole('dialog').getByRole('region', { name: /قيد الانتظار/ });
  await expectVisible(arabicSection);
  expect(await arabicSection.getByRole('listitem').allTextContents()).toEqual([
    `تاريخ الإتاحة ${day}${first} نقطة أكمي`,
    `تاريخ الإتاحة ${laterDay}${rest} نقطة أكمي`,
  ]);
  expect(await arabicSection.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  // The return's entry says "Return of" in Arabic; in it and the credits, the rule's words are its Arabic text (the name is the rule's own).
  const arabicRows = page.getByRole('dialog').locator('tbody tr');
  await expect
    .poll(async () => Promise.all((await arabicRows.all()).map(async (row) => (await row.locator('td').allTextContents())[1])))
    .toEqual([
      `إرجاع visit2-${tag}: Store visit: ٦٠ نقطة لكل زيارة`,
      'Store visit: ٦٠ نقطة لكل زيارة',
      'Store visit: ٦٠ نقطة لكل زيارة',
      expect.any(String),
    ]);
  await expectNoSeriousA11yViolations(page);
});
