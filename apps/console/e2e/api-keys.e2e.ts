// API keys in the console (issue 29 §1, decision 083): an owner, enrolled just now, makes a key for
// Acme (a fresh second factor first), sees it once with a copy button, and the key opens the
// launch-token call; revoked with a reason, the same key is refused (401) on its next call. An
// auditor reads the list without a way to change it. The staff and the key's name are the
// story's own (decision 071). Screenshots at 1280 and 768 px into /tmp/shots-settings/.
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { ageSecondFactor, checkScreen, closePage, enrolNewStaff, expectVisible, nextTotpCode, test, unique } from './harness/console.ts';

// Both settings pages' stories (API keys, webhooks) shoot into one folder.
const SHOTS = '/tmp/shots-settings';

/** The launch-token call of the admin API with the key, as a client's helpdesk tool makes it: its status and www-authenticate. */
async function launchWith(key: string): Promise<{ status: number; authenticate: string | null }> {
  const reply = await fetch(`${inject('baseUrl')}/api/admin/v1/launch-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ username: 'demo', reason: 'api-keys browser story' }),
  });
  await reply.arrayBuffer();
  return { status: reply.status, authenticate: reply.headers.get('www-authenticate') };
}

async function openApiKeys(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'API keys for the program API' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  const chooser = page.getByLabel('Client');
  if ((await chooser.count()) > 0) await chooser.selectOption('acme');
}

test('an owner makes an API key, sees it once, and revokes it; the key is then refused', async ({ browser }) => {
  const NAME = `Helpdesk tool ${unique()}`;
  const { page, secret, ...olga } = await enrolNewStaff(browser, 'Olga Keys', 'owner');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApiKeys(page);
  const acme = page.getByRole('region', { name: 'Acme Rewards' });
  await acme.getByRole('button', { name: 'Make a key' }).waitFor();
  await checkScreen(page, '01-api-keys-list', SHOTS);

  await acme.getByRole('button', { name: 'Make a key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key for Acme Rewards' });
  await dialog.getByLabel('Name').fill(NAME);
  await dialog.getByRole('checkbox', { name: /Launch-as links/ }).check();
  await dialog.getByRole('checkbox', { name: /Read participants/ }).check();
  // The defaults a CRM's sync runs with, changeable.
  expect(await dialog.getByLabel('Calls per second (sustained)').inputValue()).toBe('200');
  expect(await dialog.getByLabel('Burst (calls at once)').inputValue()).toBe('400');
  await dialog.getByLabel('Burst (calls at once)').fill('50');
  await dialog.getByLabel('Reason').fill('Helpdesk tool of ticket 2901');
  await checkScreen(page, '02-api-keys-create', SHOTS);

  // A key reveals a secret: a second factor passed more than five minutes ago is asked for again.
  ageSecondFactor(olga.email);
  await dialog.getByRole('button', { name: 'Make the key' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });

  // Shown once, with the warning and a copy button.
  const shown = acme.getByTestId('new-api-key');
  const key = (await shown.textContent())!.trim();
  expect(key).toMatch(/^rk_live_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  await expectVisible(acme.getByText('you will not see it again', { exact: false }));
  await acme.getByRole('button', { name: 'Copy the key' }).click();
  await expectVisible(acme.getByRole('status').getByText('Copied.'));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await checkScreen(page, '03-api-keys-shown-once', SHOTS);
  expect((await launchWith(key)).status).toBe(201);

  await acme.getByRole('button', { name: 'I have stored it' }).click();
  await shown.waitFor({ state: 'detached' });
  expect(await page.getByText(key).count()).toBe(0);
  const row = acme.getByRole('row').filter({ hasText: NAME });
  await expectVisible(row.getByText('Active'));
  await expectVisible(row.getByText(key.slice(0, 20), { exact: false }));
  await expectVisible(row.getByText('launch-as'));
  await expectVisible(row.getByText('200/s, burst 50'));
  await expectVisible(row.getByText(`by ${olga.email}`));

  // Revoke, confirmed with a reason.
  await row.getByRole('button', { name: `Revoke key ${NAME}` }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke key "${NAME}"?` });
  await expectVisible(revoke.getByText('This cannot be undone', { exact: false }));
  await revoke.getByLabel('Reason').fill('Tool retired, ticket 2902');
  await checkScreen(page, '04-api-keys-revoke', SHOTS);
  await revoke.getByRole('button', { name: 'Revoke the key' }).click();
  await revoke.waitFor({ state: 'detached' });
  await expectVisible(acme.getByRole('status').getByText(`Key "${NAME}" revoked.`));
  await expectVisible(row.getByText('Revoked'));
  await expectVisible(row.getByText('Tool retired, ticket 2902', { exact: false }));
  expect(await row.getByRole('button', { name: `Revoke key ${NAME}` }).count()).toBe(0);
  await checkScreen(page, '05-api-keys-revoked', SHOTS);

  const refused = await launchWith(key);
  expect(refused.status).toBe(401);
  expect(refused.authenticate).toMatch(/^Bearer/);
  await closePage(page);

  // An auditor of Acme sees the keys, and no way to make or revoke one.
  const { page: auditor } = await enrolNewStaff(browser, 'Arno Keys', 'auditor');
  await openApiKeys(auditor);
  const list = auditor.getByRole('region', { name: 'Acme Rewards' });
  await expectVisible(list.getByRole('row').filter({ hasText: NAME }).getByText('Revoked'));
  await expectVisible(list.getByText('owners and program managers make and revoke them', { exact: false }));
  expect(await list.getByRole('button', { name: 'Make a key' }).count()).toBe(0);
  expect(await list.getByRole('button', { name: /^Revoke key/ }).count()).toBe(0);
  await checkScreen(auditor, '06-api-keys-auditor', SHOTS);
  await closePage(auditor);
});
