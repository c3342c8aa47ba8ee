// Reports in the console (issue 20, section 5, decision 067): the owner opens the reports, sees
// every client side by side, then Acme's points per month as a chart with its table, downloads
// the table's CSV and finds in it the lines on screen; an auditor of Acme reads Acme's reports too.
// The staff are the stories' own; the figures are read, and checked against each other, not
// against numbers other stories' points would move (decision 071).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { checkScreen, closePage, enrolNewStaff, expectVisible, test } from './harness/console.ts';

const POINTS_HEADER = 'Month,Issued,Redeemed,Expired,Other debits,Outstanding';

test('the owner opens the reports, compares the clients, and downloads the points per month as CSV', async ({ browser }) => {
  const { page } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

  // Side by side first: every client of the installation, with its chart and table.
  const compare = page.getByRole('region', { name: 'Clients side by side' });
  const compareTable = compare.getByRole('table', { name: 'Clients side by side' });
  await expectVisible(compareTable.getByRole('cell', { name: 'Acme Rewards' }));
  await expectVisible(compareTable.getByRole('cell', { name: 'Nimbus Miles' }));
  await expectVisible(compare.getByRole('img', { name: /Bar chart of the points outstanding per client/ }));
  await compare.locator('canvas').first().waitFor();
  await checkScreen(page, '90-reports-clients');

  // One client: Acme, its points over the last 12 months.
  await page.getByLabel('Client', { exact: true }).selectOption({ label: 'Acme Rewards' });
  const points = page.getByRole('region', { name: 'Points per month' });
  const table = points.getByRole('table', { name: 'Points per month' });
  await expectVisible(points.getByRole('img', { name: /Line chart of the points outstanding/ }));
  await points.locator('canvas').first().waitFor();
  await expect.poll(() => table.locator('tbody tr').count()).toBe(12);
  // Bea Bigspender's three years: this year's months have points issued.
  const cells = await table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())));
  await checkScreen(page, '91-reports-acme');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    points.getByRole('button', { name: 'Download CSV: Points per month' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^points-acme-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text.slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe(POINTS_HEADER);
  expect(lines).toHaveLength(13);
  // Each line is the row on screen, with plain numbers (the screen groups thousands).
  const plain = (cell: string) => cell.replaceAll(',', '');
  expect(lines.slice(1)).toEqual(cells.map((row) => row.map(plain).join(',')));
  const months = lines.slice(1).map((line) => line.split(',').map((cell, i) => (i === 0 ? cell : Number(cell))));
  expect(months.some(([, issued]) => (issued as number) > 0)).toBe(true);
  // Each month's outstanding is the one before plus its issued, less what left.
  for (let i = 1; i < months.length; i += 1) {
    const [, issued, redeemed, expired, adjusted, outstanding] = months[i] as [string, number, number, number, number, number];
    expect(outstanding).toBe((months[i - 1]![5] as number) + issued - redeemed - expired - adjusted);
  }
  // The last month's is the liability now, shown above the charts.
  const now = (await points
    .getByText(/Outstanding now/)
    .locator('strong')
    .textContent())!;
  expect(Number(plain(now))).toBe(months.at(-1)![5]);
  await closePage(page);
});

test("an auditor of Acme reads Acme's code batches", async ({ browser }) => {
  const { page } = await enrolNewStaff(browser, 'Ada Auditor', 'auditor');
  await page.goto('/console/reports?client=acme&months=12');
  const codes = page.getByRole('region', { name: 'Code batches' });
  const table = codes.getByRole('table', { name: 'Code batches' });
  await expectVisible(table.getByRole('cell', { name: 'Demo 2026' }));
  await expectVisible(codes.getByRole('img', { name: /redemption rate/ }));
  await closePage(page);
});
