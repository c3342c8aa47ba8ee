// Code batches in the console (issue 20 §1, decision 063): a program manager, enrolled just now,
// generates a batch (a fresh second factor first), gets its codes once as a CSV download, a
// participant redeems one of them in the portal, the list counts it; a code is voided with a
// reason and the portal refuses it. A support agent reads the batches without a way to change them.
// The staff, the participant and the batch (a batch name is claimed once) are the story's own (decision 071).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  newParticipant,
  nextTotpCode,
  openPortal,
  rewards,
  signInPortal,
  test,
  unique,
} from './harness/console.ts';

const CODE = /^[ACDEFGHJKMNPQRTUVWXY34679]{4}(-[ACDEFGHJKMNPQRTUVWXY34679]{4}){3}$/;

/** The cells of a batch's row: name, created, value, expires, generated, unused, redeemed, expired, void. */
async function batchRow(page: Page, name: string): Promise<string[]> {
  const row = page.getByRole('row', { name: `Open batch ${name}` });
  await row.waitFor();
  return (await row.locator('td').allTextContents()).map((cell) => cell.trim());
}

test('a program manager generates a batch, downloads its codes once; one is redeemed in the portal, another voided', async ({
  browser,
}) => {
  const BATCH = `Spring fair ${unique()}`;
  const FILE = `codes-${BATCH.replaceAll(' ', '-')}.csv`;
  const { page, secret, ...quinn } = await enrolNewStaff(browser, 'Quinn Codes');

  await page.getByRole('link', { name: 'Codes' }).click();
  await page.getByRole('heading', { name: 'Code batches', level: 1 }).waitFor();
  const acme = page.getByRole('region', { name: 'Acme Rewards' });
  await expectVisible(acme.getByRole('row', { name: 'Open batch Demo 2026' }));

  await acme.getByRole('button', { name: 'Generate a batch' }).click();
  const dialog = page.getByRole('dialog', { name: 'New code batch for Acme Rewards' });
  await dialog.getByLabel('Batch name').fill(BATCH);
  await dialog.getByLabel('Number of codes').fill('5');
  await dialog.getByLabel('Points per code').fill('250');
  await dialog.getByLabel('Last day to redeem (optional)').fill('2099-12-31');
  await dialog.getByLabel('Reason').fill('Trade show hand-outs, ticket 7001');
  await checkScreen(page, '80-codes-generate-dialog');

  // Minting points wants a second factor passed within five minutes: an older one asks again.
  ageSecondFactor(quinn.email);
  await dialog.getByRole('button', { name: 'Generate and download' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await checkScreen(page, '81-codes-step-up');
  await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  const downloaded = page.waitForEvent('download', { timeout: 30_000 });
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe(FILE);
  const [header, ...lines] = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(header).toBe('code,value,expires_at,batch');
  const codes = lines.map((line) => line.split(',')[0]!);
  expect(codes).toHaveLength(5);
  for (const code of codes) expect(code).toMatch(CODE);
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(acme.getByRole('status').getByText(`Batch “${BATCH}”: 5 codes downloaded as ${FILE}.`, { exact: false }));
  // Never shown: no code of the file is on the page.
  expect(await page.getByText(codes[0]!).count()).toBe(0);
  expect(await batchRow(page, BATCH)).toEqual([BATCH, expect.any(String), '250', '31 Dec 2099', '5', '5', '0', '0', '0']);

  // A participant redeems the first code in the portal.
  const nina = await newParticipant({ firstName: 'Nina', lastName: 'Newbie' });
  const portal = await openPortal(browser);
  await signInPortal(portal, nina.username);
  const box = portal.getByRole('main').getByRole('region', { name: /on-the-spot code/i });
  await box.getByRole('textbox', { name: 'On-the-spot code' }).fill(codes[0]!);
  await box.getByRole('button', { name: 'Redeem code' }).click();
  await expectVisible(box.getByRole('status').getByText('Code accepted! 250 Acme Points added to your balance.'));

  await page.reload();
  await page.getByRole('heading', { name: 'Code batches', level: 1 }).waitFor();
  await expect.poll(async () => (await batchRow(page, BATCH)).slice(4)).toEqual(['5', '4', '1', '0', '0']);
  await page.getByRole('row', { name: `Open batch ${BATCH}` }).click();
  const detail = acme.getByRole('region', { name: `Batch “${BATCH}”` });
  const redeemedRow = detail
    .getByRole('table', { name: `Codes of batch ${BATCH}` })
    .getByRole('row', { name: new RegExp(codes[0]!.slice(-4)) });
  await expectVisible(redeemedRow.getByText(nina.username));
  await expectVisible(redeemedRow.getByText('Redeemed'));
  await checkScreen(page, '82-codes-batch-redeemed');

  // Void the second code by its last four characters, with a reason; the portal then refuses it.
  const hint = codes[1]!.slice(-4);
  await detail.getByRole('button', { name: 'Void a code' }).click();
  const voidDialog = page.getByRole('dialog', { name: `Void a code of “${BATCH}”` });
  await voidDialog.getByLabel('Last four characters of the code').fill(hint.toLowerCase());
  await voidDialog.getByLabel('Reason').fill('Card lost at the stand, ticket 7002');
  await voidDialog.getByRole('button', { name: 'Void' }).click();
  await voidDialog.waitFor({ state: 'detached' });
  await expectVisible(detail.getByRole('status').getByText(`Voided 1 code (“${BATCH} …${hint}”).`));
  await expect.poll(async () => (await batchRow(page, BATCH)).slice(4)).toEqual(['5', '3', '1', '0', '1']);
  await checkScreen(page, '83-codes-voided');

  await box.getByRole('textbox', { name: 'On-the-spot code' }).fill(codes[1]!);
  await box.getByRole('button', { name: 'Redeem code' }).click();
  await expectVisible(box.getByRole('alert'));
  await closePage(portal);

  // The trail names who and why, and no code.
  const audit = JSON.parse(await rewards(['audit', '--client', 'acme', '--action', 'codes', '--json'])) as Array<{
    action: string;
    actor: string;
    subject: string;
    details: Record<string, unknown>;
  }>;
  const generated = audit.find((e) => e.action === 'codes.generate' && e.subject === BATCH);
  expect(generated).toMatchObject({
    actor: quinn.email,
    details: { count: 5, value: 250, expiresAt: '2099-12-31T23:59:59.999Z', reason: 'Trade show hand-outs, ticket 7001' },
  });
  expect(audit.find((e) => e.action === 'codes.void' && e.actor === quinn.email)).toMatchObject({
    actor: quinn.email,
    subject: `${BATCH} …${hint}`,
    details: { voided: 1, reason: 'Card lost at the stand, ticket 7002' },
  });
  expect(JSON.stringify(audit)).not.toContain(codes[1]!.slice(0, 9));
  await closePage(page);

  // A support agent reads the batches, with no way to generate or void.
  const { page: agent } = await enrolNewStaff(browser, 'Alex Agent', 'support_agent');
  await agent.getByRole('link', { name: 'Codes' }).click();
  await agent.getByRole('heading', { name: 'Code batches', level: 1 }).waitFor();
  expect((await batchRow(agent, BATCH)).slice(4)).toEqual(['5', '3', '1', '0', '1']);
  await expectVisible(agent.getByText('Your role here is read-only: program managers generate and void codes.'));
  expect(await agent.getByRole('button', { name: 'Generate a batch' }).count()).toBe(0);
  await agent.getByRole('row', { name: `Open batch ${BATCH}` }).click();
  await agent.getByRole('table', { name: `Codes of batch ${BATCH}` }).waitFor();
  expect(await agent.getByRole('button', { name: /Void/ }).count()).toBe(0);
  await checkScreen(agent, '84-codes-agent-read-only');
  await closePage(agent);
});
