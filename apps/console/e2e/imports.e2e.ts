// Imports in the browser (issue 20 §2, decision 064): a points file with two bad lines is
// uploaded, the upload answers with the job still previewing and the page prepares the preview
// (through a reload too), then shows the two rejects with their line numbers and nothing posted
// yet; a confirmation with a reason starts the job, whose progress reaches done in the page; the
// points are then on the participant's console page. A second file is previewed and discarded.
// The owner and the two participants of the file are the story's own (decision 071).
import type { Route } from 'playwright-core';
import { expect } from 'vitest';
import type { ImportJob, ImportJobList } from '@rewards/contract/console-imports';
import { checkScreen, closePage, enrolNewStaff, expectVisible, newParticipant, openParticipant, test, unique } from './harness/console.ts';

test('a points file with two bad lines: preview, confirm, progress to done, the points on the participant page', async ({ browser }) => {
  const [nina, dana] = await Promise.all([
    newParticipant({ firstName: 'Nina', lastName: 'Newbie' }),
    newParticipant({ firstName: 'Dana', lastName: 'Demo' }),
  ]);
  const run = unique();
  const today = new Date().toISOString().slice(0, 10);
  const file = [
    'username,points,date,description,external_id',
    `${nina.username},125,${today},Spring campaign ${run},e2e-${run}-1`,
    `${dana.username},75,${today},Spring campaign ${run},e2e-${run}-2`,
    `${nina.username},lots,${today},Not a number,e2e-${run}-3`,
    `nobody.here,10,${today},Who is this,e2e-${run}-4`,
    `${nina.username},25,${today},Referral ${run},e2e-${run}-5`,
  ].join('\n');

  const { page } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  await page.getByRole('link', { name: 'Imports' }).click();
  await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
  await page.getByLabel('Client').selectOption({ label: 'Acme Rewards' });
  await page.getByLabel('Kind').selectOption('points');
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'spring.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });

  // A preview of five lines is ready within milliseconds on the server; to see the page while one is
  // under way (as a million lines take minutes), the job's reads are answered as the server answered
  // them mid-preview (previewing, two lines read, no counts yet) until the test lets them through.
  // The upload's own answer is the server's, untouched.
  let holding = true;
  const asPreviewing = (job: Omit<ImportJob, 'rejects'>) => ({ ...job, status: 'previewing', preview: null, done: 2 });
  const previewingRoute = async (route: Route) => {
    if (!holding || route.request().method() !== 'GET') return route.fallback();
    // Chromium alone resolves console.localhost (RFC 6761): from here the request goes to 127.0.0.1, with the console's host.
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: url.href.replace(url.hostname, '127.0.0.1'),
      headers: { ...route.request().headers(), host: url.host },
    });
    const body: unknown = await response.json();
    const held = /\/imports$/.test(new URL(route.request().url()).pathname)
      ? { jobs: (body as ImportJobList).jobs.map((j) => (j.fileName === 'spring.csv' && j.status === 'staged' ? asPreviewing(j) : j)) }
      : { ...asPreviewing(body as ImportJob), rejects: [] };
    return route.fulfill({ response, json: held });
  };
  const jobReads = /\/clients\/acme\/imports(\/[^/]+)?$/;
  await page.route(jobReads, previewingRoute);
  const uploaded = page.waitForResponse((r) => r.request().method() === 'POST' && /\/clients\/acme\/imports\?/.test(r.url()));
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  // The upload answers once the lines are staged, before the preview.
  const answer = await uploaded;
  expect(answer.status()).toBe(201);
  expect(await answer.json()).toMatchObject({ status: 'previewing', lines: 5, preview: null });

  const job = page.getByRole('region', { name: 'Import of spring.csv' });
  await job.waitFor();
  await expectVisible(job.getByRole('status').getByText('Preparing the preview… 2 of 5 lines read'));
  expect(await job.getByRole('progressbar', { name: 'Preview' }).getAttribute('value')).toBe('2');
  expect(await job.getByRole('button', { name: 'Confirm import' }).count()).toBe(0);
  await expectVisible(job.getByRole('button', { name: 'Discard', exact: true }));
  await expectVisible(
    page.getByRole('region', { name: 'Earlier imports' }).getByRole('row', { name: /spring\.csv Points Preparing the preview 5/ }),
  );
  await checkScreen(page, '79-imports-previewing');
  // A reload during the preview comes back to the same job, still being prepared.
  await page.reload();
  await expectVisible(page.getByRole('region', { name: 'Import of spring.csv' }).getByText('Preparing the preview…', { exact: false }));
  // The preview is ready: the page's poll shows it without another reload.
  holding = false;
  // Waits for a read being held mid-fetch: unroute alone let it fulfil a route already handed back (an unhandled rejection in a busy run).
  await page.unrouteAll({ behavior: 'wait' });

  // The preview: three lines to add, the two bad ones with their line numbers and reasons; nothing posted.
  await expectVisible(job.getByText('Previewed'));
  const preview = job.locator('dl').first();
  await expectVisible(preview.getByText('Added'));
  expect(await preview.locator('div', { hasText: 'Added' }).locator('dd').textContent()).toBe('3');
  expect(await preview.locator('div', { hasText: 'Rejected' }).locator('dd').textContent()).toBe('2');
  expect(await preview.locator('div', { hasText: 'Points in' }).locator('dd').textContent()).toBe('225');
  const rejects = job.getByRole('table', { name: 'Rejected lines' });
  await expectVisible(rejects.getByRole('row', { name: /^4 points "lots"/ }));
  await expectVisible(rejects.getByRole('row', { name: /^5 unknown username nobody\.here/ }));
  expect(await rejects.getByRole('row').count()).toBe(3);
  await checkScreen(page, '80-imports-preview');

  // Confirm with a reason: the job runs, and the page follows it to done.
  await job.getByRole('button', { name: 'Confirm import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm the import of spring.csv' });
  await dialog.getByLabel('Reason').fill('Spring campaign points, ticket 2020');
  await checkScreen(page, '81-imports-confirm');
  await dialog.getByRole('button', { name: 'Confirm import' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(job.getByRole('status').getByText('Done: 5 lines'));
  await expectVisible(job.getByText('Result'));
  expect(await job.getByRole('progressbar', { name: 'Progress' }).getAttribute('value')).toBe('5');
  await expectVisible(job.getByRole('link', { name: 'Download the rejected lines (CSV)' }));
  await expectVisible(page.getByRole('region', { name: 'Earlier imports' }).getByRole('row', { name: /spring\.csv Points Done 5/ }));
  await checkScreen(page, '82-imports-done');

  // A reload finds the job again (it is in the address).
  await page.reload();
  await expectVisible(page.getByRole('region', { name: 'Import of spring.csv' }).getByText('Done: 5 lines'));

  // A second file, previewed and thrown away (the reason is optional): back to the upload form, saying so.
  await page.getByLabel('File', { exact: true }).setInputFiles({
    name: 'wrong.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`username,points,date,description,external_id\n${nina.username},999,${today},Wrong file ${run},e2e-${run}-9\n`),
  });
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  const wrong = page.getByRole('region', { name: 'Import of wrong.csv' });
  await expectVisible(wrong.getByText('Previewed'));
  await wrong.getByRole('button', { name: 'Discard', exact: true }).click();
  const discard = page.getByRole('dialog', { name: 'Discard the import of wrong.csv' });
  await expectVisible(discard.getByText('Its uploaded lines are deleted and nothing is written.', { exact: false }));
  await discard.getByRole('button', { name: 'Discard import' }).click();
  await discard.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText('Import discarded.'));
  await wrong.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('button', { name: 'Upload and preview' }));
  expect(await page.getByLabel('File', { exact: true }).inputValue()).toBe('');
  await expectVisible(page.getByRole('region', { name: 'Earlier imports' }).getByRole('row', { name: /wrong\.csv Points Discarded 1/ }));
  await checkScreen(page, '84-imports-discarded');

  // The points are on the participant's page, each line once.
  await openParticipant(page, nina.email, 'Nina Newbie');
  const statement = page.getByRole('table', { name: 'Statement' });
  await expectVisible(statement.getByRole('row', { name: new RegExp(`Spring campaign ${run}`) }));
  expect(await statement.getByRole('row', { name: new RegExp(`Spring campaign ${run}`) }).count()).toBe(1);
  expect(await statement.getByRole('row', { name: new RegExp(`Referral ${run}`) }).count()).toBe(1);
  // The discarded file posted nothing.
  expect(await statement.getByRole('row', { name: new RegExp(`Wrong file ${run}`) }).count()).toBe(0);
  await checkScreen(page, '83-imports-participant');
  await closePage(page);
});
