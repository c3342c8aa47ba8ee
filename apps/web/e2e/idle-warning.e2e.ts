// The idle warning against the real server, on its own portal with a 3-minute idle time, so no
// test waits for minutes: the browser's clock is moved by Playwright, and the server's notion
// of elapsed time by ageing the session's row in its database. The server then applies its own
// rules (slide, expiry) exactly as in production. Each story's participant is its own (decision
// 071): they count and end sessions, which no other story may have.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeParticipant } from '../../../test-support/e2e/participants.ts';
import { ROOT, startPortalServer, type PortalServer } from '../../../test-support/e2e/server.ts';
import { closePage, expectNoSeriousA11yViolations, openPageOn } from '../../../test-support/e2e/browser.ts';
import { expectPath, expectVisible, launchChromium, signIn } from '../../../test-support/e2e/pages.ts';

const MINUTE = 60_000;
let server: PortalServer;
let browser: Browser;
let database: DatabaseSync;

beforeAll(async () => {
  [server, browser] = await Promise.all([startPortalServer({ SESSION_IDLE_MINUTES: '3' }), launchChromium()]);
  database = new DatabaseSync(server.databaseUrl.slice('file:'.length));
  database.exec('PRAGMA busy_timeout = 5000');
});

afterAll(async () => {
  database?.close();
  await browser?.close();
  await server?.stop();
});

/**
 * A participant of the story's own (with points, or never having earned), signed in on a page
 * whose clock Playwright drives (it still runs on by itself meanwhile). The warning counts from
 * the latest call, so the clock may move only once home's own calls are sent: with a balance,
 * home asks for the expiry line; the balance itself came with the sign-in.
 * ('networkidle' is no help: it has often fired on the login page already, on a busy machine.)
 */
async function signedInWithClock({ hasBalance }: { hasBalance: boolean }): Promise<{ page: Page; username: string }> {
  const { username } = await makeParticipant(server.databaseUrl, hasBalance ? { points: 12_500 } : {});
  const page = await openPageOn(browser, server.baseUrl);
  await page.clock.install();
  const expiryLineAnswered = hasBalance
    ? page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1.0/user/points/expiring')
    : null;
  await signIn(page, username);
  await expiryLineAnswered;
  return { page, username };
}

/** The participant's live sessions, newest first. */
function sessionsOf(username: string) {
  return database
    .prepare(
      `select s.id_hash, s.last_seen_at, s.idle_expires_at from sessions s
       join participants p on p.id = s.participant_id and p.client_id = s.client_id
       where p.username = ? order by s.created_at desc`,
    )
    .all(username) as { id_hash: string; last_seen_at: string; idle_expires_at: string }[];
}

/** Moves the server's view of a session back in time: last used `agoMs` ago. */
function ageSession(username: string, agoMs: number) {
  const now = Date.now();
  database
    .prepare(
      `update sessions set last_seen_at = ?, idle_expires_at = ?
       where participant_id in (select id from participants where username = ?)`,
    )
    .run(new Date(now - agoMs).toISOString(), new Date(now - agoMs + 3 * MINUTE).toISOString(), username);
}

const warning = (page: Page) => page.getByRole('alertdialog', { name: /session is about to end/i });

test('a warning shows before the idle timeout, and "Stay signed in" truly extends the session', async () => {
  const { page, username } = await signedInWithClock({ hasBalance: true });
  await page.clock.fastForward(50_000);
  expect(await warning(page).count()).toBe(0);
  // The earliest warning for 3 minutes idle comes 65 s after the latest call (timing.ts).
  await page.clock.fastForward(20_000);
  await expectVisible(warning(page));
  const stay = warning(page).getByRole('button', { name: 'Stay signed in' });
  expect(await stay.evaluate((el) => el === document.activeElement)).toBe(true);
  await expectVisible(warning(page).getByRole('timer'));
  await expectNoSeriousA11yViolations(page);

  // The same 70 s on the server: the session's latest touch lies that far back.
  ageSession(username, 70_000);
  const [before] = sessionsOf(username);
  await stay.click();
  await warning(page).waitFor({ state: 'hidden' });

  const [after] = sessionsOf(username);
  expect(after?.id_hash).toBe(before?.id_hash);
  // Slid to a fresh 3 minutes from the keep-alive (the server's own rule at work).
  expect(Date.parse(after!.idle_expires_at) - Date.parse(before!.idle_expires_at)).toBeGreaterThanOrEqual(60_000);
  expect(Date.parse(after!.idle_expires_at)).toBeGreaterThan(Date.now() + 2 * MINUTE);
  await expectPath(page, '/home');
  await closePage(page);
});

test('ignored, the warning ends the session on the server and the login page says it timed out', async () => {
  const { page, username } = await signedInWithClock({ hasBalance: false });
  expect(sessionsOf(username)).toHaveLength(1);
  await page.clock.fastForward(70_000);
  await expectVisible(warning(page));

  await page.clock.fastForward(MINUTE);
  await expectPath(page, '/login');
  await expectVisible(page.getByText(/your session timed out/i));
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
  expect(sessionsOf(username)).toHaveLength(0);
  await closePage(page);
});

test('"Stay signed in" on a session the server has already ended takes the spec’s timeout path', async () => {
  const { page, username } = await signedInWithClock({ hasBalance: false });
  await page.clock.fastForward(70_000);
  await expectVisible(warning(page));
  ageSession(username, 4 * MINUTE); // expired a minute ago, as after a sleeping laptop

  await warning(page).getByRole('button', { name: 'Stay signed in' }).click();
  await expectPath(page, '/login');
  await expectVisible(page.getByText(/your session timed out/i));
  await closePage(page);
});

test('"Sign out" in the warning signs out', async () => {
  const { page, username } = await signedInWithClock({ hasBalance: false });
  await page.clock.fastForward(70_000);
  await warning(page).getByRole('button', { name: 'Sign out' }).click();
  await expectPath(page, '/login');
  expect(sessionsOf(username)).toHaveLength(0);
  await expect(page.getByText(/your session timed out/i).count()).resolves.toBe(0);
  await closePage(page);
});

describe('the production build', () => {
  test('holds no development navigation panel', () => {
    const assets = join(ROOT, 'apps', 'web', 'dist', 'assets');
    const files = readdirSync(assets).filter((f) => /\.(js|css)$/.test(f) && statSync(join(assets, f)).isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(join(assets, file), 'utf8');
      expect(text, file).not.toContain('dev-panel');
      expect(text, file).not.toContain('devPanel.');
    }
  });

  test('shows every text as [[key]] with ?pseudo=1, and stays so while navigating', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await signIn(page, 'merch');
    await page.goto('/home?pseudo=1');
    await expectVisible(page.getByRole('button', { name: '[[header.logout]]' }).or(page.getByRole('link', { name: '[[header.logout]]' })));
    await page.getByRole('banner').getByRole('link', { name: '[[header.profile]]' }).click();
    await expectVisible(page.getByRole('dialog'));
    await page.goto('/home?pseudo=0');
    await expectVisible(
      page.getByRole('link', { name: /sign out|تسجيل الخروج/i }).or(page.getByRole('button', { name: /sign out|تسجيل الخروج/i })),
    );
    await context.close();
  });
});
