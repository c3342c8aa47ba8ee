// An events file through the console's imports (issue 32 §1, decision 099): a program manager
// uploads a CSV of events of the story's own type (its rule made by the operator's command), the
// preview shows each line's points and the points by rule, a bad line with the API's words; a
// confirmation runs the job to done, and the result counts what was credited and held pending. A
// return line (of a line above it) shows in the preview what it would take back.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { checkScreen, closePage, enrolNewStaff, expectVisible, newParticipant, rewards, test, unique } from './harness/console.ts';

test("an events file: each line's points in the preview, confirmed, run to done", async ({ browser }) => {
  const run = unique().toLowerCase();
  const type = `visit.s${run}`;
  const dir = mkdtempSync(join(tmpdir(), 'events-import-e2e-'));
  const ruleFile = join(dir, 'rule.json');
  writeFileSync(
    ruleFile,
    JSON.stringify({
      id: `visits-${run}`,
      name: `Store visits ${run}`,
      event: type,
      earn: { pointsPer: 2, per: '1.00' },
      caps: { participant: { points: 30, per: 'month' } },
    }),
  );
  await rewards(['rules', 'create', '--client', 'acme', '--file', ruleFile, '--reason', 'events import story']);
  const [ada, bo] = await Promise.all([
    newParticipant({ firstName: 'Ada', lastName: 'Visitor' }),
    newParticipant({ firstName: 'Bo', lastName: 'Visitor' }),
  ]);
  // After the rule began (a version begins when it is made): a minute ahead, within the day an event may be ahead.
  const at = new Date(Date.now() + 60_000).toISOString();
  const file = [
    'id,type,username,occurredAt,amount,currency,store,ref.originalEventId',
    `v-${run}-1,${type},${ada.username},${at},10,EUR,Lyon,`,
    `v-${run}-2,${type},${ada.username},${at},12,EUR,Lyon,`,
    `v-${run}-3,${type},${bo.username},${at},4.50,EUR,Paris,`,
    `v-${run}-4,${type},${bo.username},yesterday,4,EUR,Paris,`,
    // Half of Ada's first visit returned: half of its 20 points.
    `v-${run}-5,return,${ada.username},${at},5,EUR,,v-${run}-1`,
  ].join('\n');

  const { page } = await enrolNewStaff(browser, 'Pia Programs', 'program_manager');
  try {
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    const chooser = page.getByLabel('Client', { exact: true });
    if ((await chooser.count()) > 0) await chooser.selectOption({ label: 'Acme Rewards' });
    await page.getByLabel('Kind').selectOption('events');
    await expectVisible(page.getByText('CSV with the header id,type,username,occurredAt', { exact: false }));
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'visits.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Upload and preview' }).click();

    const job = page.getByRole('region', { name: 'Import of visits.csv' });
    await expectVisible(job.getByText('Previewed'));
    const preview = job.locator('dl').first();
    expect(await preview.locator('div', { hasText: 'Added' }).locator('dd').textContent()).toBe('4');
    expect(await preview.locator('div', { hasText: 'Points credited' }).locator('dd').textContent()).toBe('39');
    expect(await preview.locator('div', { hasText: 'Points taken back' }).locator('dd').textContent()).toBe('10');
    // Each line's points: the cap of 30 a month cuts Ada's second visit to 10.
    const lines = job.getByRole('table', { name: 'What the first lines earn' });
    await expectVisible(lines.getByRole('row', { name: new RegExp(`^2 v-${run}-1 ${ada.username} Earns 20 0 Store visits ${run} 20$`) }));
    await expectVisible(lines.getByRole('row', { name: new RegExp(`^3 v-${run}-2 ${ada.username} Earns 10 0 Store visits ${run} 10$`) }));
    await expectVisible(lines.getByRole('row', { name: new RegExp(`^4 v-${run}-3 ${bo.username} Earns 9 0`) }));
    await expectVisible(lines.getByRole('row', { name: new RegExp(`^5 v-${run}-4 ${bo.username} Rejected 0 0 The event is not valid`) }));
    await expectVisible(
      lines.getByRole('row', {
        name: new RegExp(`^6 v-${run}-5 ${ada.username} Takes back -10 0 Return of v-${run}-1: Store visits ${run} -10$`),
      }),
    );
    // By rule: what the file's lines earn less what its return takes back.
    await expectVisible(job.getByRole('table', { name: 'Points by rule' }).getByRole('row', { name: `Store visits ${run} 29 0 3` }));
    await expectVisible(job.getByRole('table', { name: 'Rejected lines' }).getByRole('row', { name: /^5 The event is not valid/ }));
    await checkScreen(page, '85-imports-events-preview');

    await job.getByRole('button', { name: 'Confirm import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the import of visits.csv' });
    await dialog.getByLabel('Reason').fill('Store visits of the week');
    await dialog.getByRole('button', { name: 'Confirm import' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectVisible(job.getByRole('status').getByText('Done: 5 lines'));
    const result = job.locator('dl').last();
    expect(await result.locator('div', { hasText: 'Points credited' }).locator('dd').textContent()).toBe('39');
    expect(await result.locator('div', { hasText: 'Points taken back' }).locator('dd').textContent()).toBe('10');
    await expectVisible(page.getByRole('region', { name: 'Earlier imports' }).getByRole('row', { name: /visits\.csv Events Done 5/ }));
    await checkScreen(page, '86-imports-events-done');
  } finally {
    await closePage(page);
  }
});
