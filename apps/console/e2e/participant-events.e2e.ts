// The participant page's Events in the browser (issue 32 §3, decision 098): a client's system sends
// two purchases for a participant made for this story (one earning points held 14 days, one
// credited at once), the held line's window is made to have passed and the release run credits it,
// then a return takes back the first purchase's pending part and another the second one after the
// participant spent most of it. A support agent sees each line pending or released, the returns'
// lines taken from pending points or from the balance, and what could not be taken back as owed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import {
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  newParticipant,
  openParticipant,
  rewards,
  test,
  unique,
} from './harness/console.ts';

const SHOTS = '/tmp/shots-participant-events';

/** A rule of the story's own, from a file as `rewards rules create` takes it. */
async function addRule(rule: Record<string, unknown>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rule-'));
  try {
    const file = join(dir, 'rule.json');
    await writeFile(file, JSON.stringify(rule));
    await rewards(['rules', 'create', '--client', 'acme', '--file', file, '--reason', 'participant events story']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface PostedEvent {
  id: string;
  points: number;
  pendingPoints: number;
  lines: Array<{ pending: boolean; availableOn: string | null }>;
}

async function postEvent(key: string, body: Record<string, unknown>): Promise<PostedEvent> {
  const reply = await fetch(`${inject('baseUrl')}/api/program/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.status, await reply.clone().text()).toBe(201);
  return (await reply.json()) as PostedEvent;
}

async function eventsSection(page: Page) {
  const section = page.getByRole('region', { name: 'Events' });
  await section.getByRole('table').waitFor();
  return section;
}

test('a support agent sees pending and released lines, the returns and what is owed', async ({ browser }) => {
  const tag = unique().toLowerCase();
  const held = `held.s${tag}`;
  const now = `now.s${tag}`;
  await addRule({
    name: `Store purchases ${tag}`,
    event: held,
    earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
    pendingDays: 14,
    text: { 'en-US': '2 points per euro in store' },
  });
  await addRule({ name: `Web shop ${tag}`, event: now, earn: { pointsPer: 1, per: '1.00' }, text: { 'en-US': 'a point per euro' } });
  const { key } = JSON.parse(
    await rewards([
      'api-keys',
      'create',
      '--client',
      'acme',
      '--name',
      `events story ${tag}`,
      '--scopes',
      'events:write',
      '--reason',
      'participant events story',
      '--json',
    ]),
  ) as { key: string };
  const person = await newParticipant({ firstName: 'Eve', lastName: 'Events' });
  // Just after the rules began: they are in force at the events' time.
  const at = new Date(Date.now() + 60_000).toISOString();
  const first = await postEvent(key, { id: `a-${tag}`, type: held, username: person.username, occurredAt: at, amount: '50.00' });
  const second = await postEvent(key, { id: `b-${tag}`, type: now, username: person.username, occurredAt: at, amount: '100.00' });
  expect([first.pendingPoints, second.points]).toEqual([100, 100]);
  // A third purchase whose window has passed (made so here), released by the run.
  const third = await postEvent(key, { id: `c-${tag}`, type: held, username: person.username, occurredAt: at, amount: '10.00' });
  const db = new DatabaseSync(inject('databaseUrl').replace(/^file:/, ''));
  try {
    db.prepare('UPDATE participant_event_lines SET available_at = ? WHERE client_id = ? AND event_id = ?').run(
      '2026-01-01T00:00:00.000Z',
      'acme',
      third.id,
    );
  } finally {
    db.close();
  }
  await rewards(['events', 'release', '--client', 'acme']);
  // Half of the first purchase back (from pending), then the participant spends and returns the second.
  await postEvent(key, {
    id: `r1-${tag}`,
    type: 'return',
    username: person.username,
    occurredAt: at,
    amount: '25.00',
    references: { originalEventId: first.id },
  });
  await rewards(['points', 'adjust', '--client', 'acme', '--username', person.username, '--points=-110', '--reason', 'spent in the story']);
  const debt = await postEvent(key, {
    id: `r2-${tag}`,
    type: 'return',
    username: person.username,
    occurredAt: at,
    references: { originalEventId: second.id },
  });
  expect(debt).toMatchObject({ points: -10 });

  const { page } = await enrolNewStaff(browser, 'Sam Events', 'support_agent');
  try {
    await openParticipant(page, person.username, 'Eve Events');
    const section = await eventsSection(page);
    const row = (id: string) => section.getByRole('row').filter({ hasText: id });
    // The release day the participant is told (the program's calendar day), not the instant the window ends.
    const releaseDay = first.lines.find((line) => line.pending)?.availableOn ?? '';
    const shown = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${releaseDay}T00:00:00Z`));
    await expectVisible(row(first.id).getByText(`pending, available on ${shown}`));
    await expectVisible(row(first.id).getByText(/50 taken back by returns/));
    await expectVisible(row(first.id).getByText('returned so far: 25.00'));
    await expectVisible(row(third.id).getByText(/released /));
    // Pending is what each event holds now: 100 held less the 50 returns took back; nothing once released.
    await expectVisible(row(first.id).getByRole('cell', { name: '50', exact: true }));
    expect(await row(third.id).getByRole('cell', { name: '20', exact: true }).count()).toBe(0);
    await expectVisible(row(`r1-${tag}`).getByText(`return of ${first.id}`));
    await expectVisible(row(`r1-${tag}`).getByText(/taken from pending points/));
    await expectVisible(row(`r2-${tag}`).getByText(/taken from the balance/));
    await expectVisible(row(`r2-${tag}`).getByText(/90 not covered by the balance \(owed\)/));
    await expectVisible(section.getByRole('columnheader', { name: 'Owed' }));
    // Above the table, what the participant owes over all their events.
    await expectVisible(section.getByText('Owes 90 points that returns could not take back (the balance was short).'));
    await expectVisible(row(`r2-${tag}`).getByRole('cell', { name: '90', exact: true }));
    await checkScreen(page, '01-participant-events', SHOTS);
  } finally {
    await closePage(page);
  }
});
