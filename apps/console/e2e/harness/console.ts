/**
 * The console's browser-test helpers: a page on the console's origin, staff and participants made
 * for one story, TOTP codes that never repeat a step (the server takes each step once), client-wide
 * settings put back when a story ends, the operator command with the console's origin, axe, and
 * screenshots at 1280 and 768 px into screenshots/console/ when `npm run screenshots` runs the stories.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { expect, inject, onTestFinished } from 'vitest';
import { ROOT } from '../../../../test-support/e2e/server.ts';
import { rewardsCli } from '../../../../test-support/e2e/operator.ts';
import { closePage, expectNoSeriousA11yViolations, openPageOn } from '../../../../test-support/e2e/browser.ts';
import {
  makeCodes,
  makeParticipant,
  unique,
  type Participant,
  type ParticipantOptions,
} from '../../../../test-support/e2e/participants.ts';

export { closePage, expectNoSeriousA11yViolations, unique };
export type { Participant };
export {
  test,
  launchChromium,
  expectVisible,
  expectPath,
  loginForm,
  signIn as signInPortal,
  DEMO_PASSWORD,
} from '../../../../test-support/e2e/browser.ts';

export const STAFF_PASSWORD = 'Console-Demo-2026';
/**
 * The README's demo staff: only staff-oidc.e2e.ts signs them in, on a server of its own (its
 * provider's accounts are theirs). Every story on the shared server makes its own staff
 * (enrolNewStaff), so no two share a session, a second factor's age, a TOTP step or a day's total.
 */
export const DEMO_STAFF = {
  owner: { email: 'owner@rewards.localhost', secret: '74OXMCESMDEAQPZEHU3OLYRXCOWICIWZ' },
  agent: { email: 'agent@acme.example', secret: 'VMESY4GQNQKE2N4VZIPKTY2VZMJCZMBW' },
  auditor: { email: 'auditor@acme.example', secret: 'KHQJLUPFYHHSAO5XLOVU2IVXD5S6KDC7' },
} as const;

/** A page of a new context on the console's origin. */
export function openConsole(browser: Browser): Promise<Page> {
  return openPageOn(browser, inject('consoleUrl'));
}

// The steps each secret has used, kept in a file: test files run in their own module scope
// but share one server, which takes each step of a secret once.
// Beside the test server's database, in the folder the harness removes when the server stops.
const runDir = dirname(inject('databaseUrl').replace(/^file:/, ''));
const stepsFile = join(runDir, 'console-e2e-steps.json');
function usedSteps(): Record<string, number> {
  return existsSync(stepsFile) ? (JSON.parse(readFileSync(stepsFile, 'utf8')) as Record<string, number>) : {};
}

/**
 * A code of the secret the server has not taken yet: the server accepts the previous, current
 * and next 30-second step, each once, later than the last taken (we start at the current one,
 * so a step turning over on the way cannot make it too old). Waits (by polling the clock,
 * with a deadline) only when three codes were used within one step.
 */
export async function nextTotpCode(secret: string): Promise<string> {
  const totp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  const deadline = Date.now() + 65_000;
  for (;;) {
    const used = usedSteps();
    const now = Math.floor(Date.now() / 1000 / 30);
    const step = Math.max(now, (used[secret] ?? -Infinity) + 1);
    if (step <= now + 1) {
      writeFileSync(stepsFile, JSON.stringify({ ...used, [secret]: step }));
      return totp.generate({ timestamp: step * 30_000 });
    }
    if (Date.now() > deadline) throw new Error('no fresh TOTP step within a minute');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A staff member of the story's own, enrolled: the address they sign in with and their authenticator secret. */
export interface Staff {
  email: string;
  name: string;
  secret: string;
}

/** A new address each call, from the person's name: "Alex Agent" → alex.agent.<unique>@acme.example. */
export function staffEmail(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${unique()}@acme.example`;
}

/**
 * A new staff member made for the story, as an owner creates them with the operator command (a
 * role in one client, or `owner` for the whole installation), who enrols through the link (a
 * password, then an authenticator code) and lands on the participants screen. Returns that page,
 * their address and their authenticator secret (for a sign-in or a step-up later).
 */
export async function enrolNewStaff(
  browser: Browser,
  name: string,
  role: 'owner' | 'program_manager' | 'support_agent' | 'auditor' = 'program_manager',
  client = 'acme',
): Promise<Staff & { page: Page }> {
  const email = staffEmail(name);
  const link = await enrolmentLink(email, name, role, client);
  const page = await openConsole(browser);
  await page.goto(link);
  await page.getByLabel('New password').fill(STAFF_PASSWORD);
  await page.getByLabel('Repeat the password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await page.getByRole('button', { name: 'Confirm code' }).click();
  await page.getByRole('button', { name: 'I have saved them: open the console' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  return { page, email, name, secret };
}

/** `rewards staff create` for a new person; their single-use enrolment link on the console's origin. */
export async function enrolmentLink(
  email: string,
  name: string,
  role: 'owner' | 'program_manager' | 'support_agent' | 'auditor',
  client = 'acme',
): Promise<string> {
  const created = await rewards([
    'staff',
    'create',
    email,
    '--name',
    name,
    ...(role === 'owner' ? ['--owner'] : ['--role', role, '--client', client]),
    '--reason',
    'browser test',
  ]);
  const link = /https?:\/\/\S+\/console\/enrol#\S+/.exec(created)?.[0];
  expect(link, created).toBeDefined();
  return link!;
}

/** Signs in through the sign-in page with a password and an authenticator code; waits for the participants screen. */
export async function signInConsole(page: Page, email: string, secret: string): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const heading = page.getByRole('heading', { name: 'Participants', level: 1 });
  await heading.or(page.getByRole('alert')).first().waitFor();
  expect(await page.getByRole('alert').allTextContents(), `signing in ${email}`).toEqual([]);
  await heading.waitFor();
}

/**
 * Makes the second factor of every session of `email` six minutes old, as if the sign-in had been
 * a while ago, so the next change that wants a fresh factor asks for the step-up (waiting out the
 * five minutes is no option). Straight into the test server's SQLite file: no API may do this.
 */
export function ageSecondFactor(email: string): void {
  const db = new DatabaseSync(inject('databaseUrl').replace(/^file:/, ''));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const at = new Date(Date.now() - 6 * 60_000).toISOString();
    const result = db
      .prepare(
        'UPDATE staff_sessions SET second_factor_at = ? WHERE second_factor_at IS NOT NULL AND staff_id = (SELECT id FROM staff WHERE email = ?)',
      )
      .run(at, email);
    expect(Number(result.changes), `sessions of ${email}`).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}

/** The operator command against the test server's database, with the console's origin (for enrolment links); in this process (rewardsCli). */
export function rewards(args: string[]): Promise<string> {
  return rewardsCli(inject('databaseUrl'), args, { CONSOLE_ORIGIN: inject('consoleUrl') });
}

const SHOTS = join(ROOT, 'screenshots', 'console');

/**
 * Whether this run writes the screens' pictures: `npm run screenshots` runs the stories with
 * CONSOLE_SCREENSHOTS=1 (scripts/screenshots.ts); `npm test` compares none, so writes none (decision 088).
 */
const WRITE_SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';

/**
 * Screenshots of the page as it is, at 1280 and at 768 px wide, then back to 1280: the whole page,
 * or the window only while a modal dialog is open (its backdrop covers the window, so a whole-page
 * shot would show the page below the fold as if it were outside the dialog's reach). Only when the
 * run writes screenshots.
 */
export async function screenshots(page: Page, name: string, dir = SHOTS): Promise<void> {
  if (!WRITE_SCREENSHOTS) return;
  mkdirSync(dir, { recursive: true });
  const modal = (await page.locator('dialog[open]').count()) > 0;
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: !modal });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** axe, and both screenshots when the run writes them (into dir, default screenshots/console): every screen of the console goes through here. */
export async function checkScreen(page: Page, name: string, dir?: string): Promise<void> {
  await expectNoSeriousA11yViolations(page);
  await screenshots(page, name, dir);
}

/** A page of a new context on the participant portal (the demo's Acme, this test server's port). */
export function openPortal(browser: Browser): Promise<Page> {
  return openPageOn(browser, inject('baseUrl'));
}

/** A participant of the story's own in Acme, signing in to the portal with the demo password (decision 071). */
export function newParticipant(options: ParticipantOptions = {}): Promise<Participant> {
  return makeParticipant(inject('databaseUrl'), options);
}

/** On-the-spot codes of the story's own (a new batch in Acme): the plain codes. */
export function newCodes(count: number, value: number): Promise<string[]> {
  return makeCodes(inject('databaseUrl'), count, value);
}

/** A client as `rewards clients show --json` prints it: the parts stories change and put back. */
export interface ShownClient {
  portalUrl: string;
  branding: { brandColor: string };
  mediaLabels: Record<string, Record<string, string>>;
  catalogs: Partial<Record<'merchandise' | 'experiences' | 'travel', { url: string; partnerId?: string }>>;
  agentDailyAdjustmentLimit: number;
  expiry: { expiry: string; timeZone: string; reminderDays: number; lastChanceDays: number };
}

/** The command's --media-label of one locale's forms: "en-US:one=Acme Point;other=Acme Points". */
export function mediaLabelFlag(locale: string, forms: Record<string, string>): string {
  return `${locale}:${Object.entries(forms)
    .map(([form, label]) => `${form}=${label}`)
    .join(';')}`;
}

/**
 * What the portal answers a participant's browser for Acme at viewConfig/`path` now, through the
 * server's configuration cache (CLIENT_CACHE_SECONDS): `client` (branding, labels, catalogs, the
 * default locale's texts) or `bundle/<locale>` (a locale's texts). From Node, as the page would ask.
 */
export async function portalAnswers(path: string): Promise<string> {
  const reply = await fetch(`${inject('baseUrl')}/api/v1.0/viewConfig/${path}`, { headers: { 'client-id': inject('baseUrl') } });
  expect(reply.status, `GET viewConfig/${path}`).toBe(200);
  return reply.text();
}

/** Everything the portal answers for Acme's configuration: the client and every locale's texts. */
async function portalConfiguration(): Promise<string> {
  const client = await portalAnswers('client');
  const { localeList } = JSON.parse(client) as { localeList: Array<{ code: string }> };
  const bundles = await Promise.all(localeList.map(({ code }) => portalAnswers(`bundle/${encodeURIComponent(code)}`)));
  return [client, ...bundles].join('\n');
}

/**
 * For a story that changes a client-wide setting of Acme, which every other story shares
 * (decision 071): returns Acme as it is now, and puts it back when the story ends, passed or
 * failed: `clients update` with the flags `restore` makes of what it was (`after`: what else to
 * put back, such as texts), then waits for the event "the portal answers as before the story"
 * (it reads its configuration through a cache of CLIENT_CACHE_SECONDS), 30 s at most, so that
 * the next story never meets this one's setting.
 */
export async function restoreAcmeAfterTest(restore: (before: ShownClient) => string[], after?: () => Promise<void>): Promise<ShownClient> {
  const [before, portalBefore] = await Promise.all([
    rewards(['clients', 'show', '--client', 'acme', '--json']).then((json) => JSON.parse(json) as ShownClient),
    portalConfiguration(),
  ]);
  onTestFinished(async () => {
    const flags = restore(before);
    if (flags.length > 0) await rewards(['clients', 'update', '--client', 'acme', ...flags]);
    await after?.();
    const deadline = Date.now() + 30_000;
    while ((await portalConfiguration()) !== portalBefore) {
      if (Date.now() > deadline) throw new Error('the portal still answers with the changed settings 30 s after they were put back');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  return before;
}

/** Finds the participant by `query` and opens their page; waits for the heading `name`. */
export async function openParticipant(page: Page, query: string, name: string): Promise<void> {
  const row = await findParticipant(page, query, new RegExp(name));
  await row.click();
  await page.getByRole('heading', { name: new RegExp(name), level: 1 }).waitFor();
}

/** The participants search: types, waits for the table, returns the row of `text`. */
export async function findParticipant(page: Page, query: string, rowName: RegExp) {
  await page.getByRole('link', { name: 'Participants' }).click();
  await page.getByLabel('Find a participant').fill(query);
  const row = page.getByRole('row', { name: rowName });
  await row.waitFor();
  expect(await row.count()).toBe(1);
  return row;
}
