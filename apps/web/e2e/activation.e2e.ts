// Decision 039: the operator makes a client ask for the date of birth and imports a participant
// with one; that participant activates on the Arabic page, typing the date in the DateField.
// Its own server: the client's activation fields change (other files expect Acme's demo fields).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startPortalServer, type PortalServer } from '../../../test-support/e2e/server.ts';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import { closePage, expectNoSeriousA11yViolations, openPageOn } from '../../../test-support/e2e/browser.ts';
import { acknowledgeCookieNotice, chooseLanguage, expectPath, expectVisible, launchChromium } from '../../../test-support/e2e/pages.ts';

const PASSWORD = 'Garden-Path-42';
const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const indic = (digits: string) => digits.replace(/\d/g, (d) => ARABIC_INDIC[Number(d)] ?? d);

let server: PortalServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [server, browser, dir] = await Promise.all([startPortalServer(), launchChromium(), mkdtemp(join(tmpdir(), 'activation-e2e-'))]);
  await rewardsCli(server.databaseUrl, ['clients', 'update', '--client', 'acme', '--activation-fields', 'accountNumber,dateOfBirth']);
  const people = join(dir, 'people.csv');
  await writeFile(
    people,
    'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status,date_of_birth\n' +
      'farah,Farah,Faris,farah@example.com,ar,3000001,yes,yes,yes,,pending,1987-03-14\n' +
      'lucie,Lucie,Lenoir,lucie@example.com,fr-FR,3000002,yes,yes,yes,,pending,1990-02-28\n',
  );
  await rewardsCli(server.databaseUrl, ['participants', 'import', people, '--client', 'acme']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inlineStart = async (page: Page, label: string) => (await page.getByLabel(label, { exact: true }).boundingBox())?.x ?? Number.NaN;

async function fillPasswords(page: Page): Promise<void> {
  await page.getByLabel('كلمة المرور الجديدة', { exact: true }).fill(PASSWORD);
  await page.getByLabel('تأكيد كلمة المرور الجديدة', { exact: true }).fill(PASSWORD);
}

test('Farah, imported with her date of birth, activates on the Arabic page after one wrong day', async () => {
  const page = await openPageOn(browser, server.baseUrl);
  await page.goto('/activation');
  await acknowledgeCookieNotice(page);
  await chooseLanguage(page, /العربية|arabic/i);
  await page.waitForFunction(() => document.documentElement.lang === 'ar');

  // What the operator set: the account number and the date of birth, in Arabic, nothing else.
  const birth = page.getByRole('group', { name: 'تاريخ الميلاد' });
  await expectVisible(birth);
  await expect
    .poll(() => page.locator('main fieldset').first().locator('label, legend').allTextContents())
    .toEqual(expect.arrayContaining(['رقم الحساب', 'تاريخ الميلاد', 'اليوم', 'الشهر', 'السنة']));
  expect(await page.getByLabel('اسم العائلة').count()).toBe(0);
  expect(await page.locator('main form').innerText()).not.toMatch(/[A-Za-z]{3,}/);

  await page.getByLabel('رقم الحساب').fill('3000001');
  await birth.getByLabel('اليوم').fill(indic('15'));
  await birth.getByLabel('الشهر').selectOption('3');
  await birth.getByLabel('السنة').fill(indic('1987'));
  await fillPasswords(page);
  await page.getByRole('checkbox').check();
  await expectNoSeriousA11yViolations(page);
  await page.locator('main button[type="submit"]').click();

  // One wrong day: the generic refusal, in Arabic; the date stays, the passwords are cleared.
  const alert = page.getByRole('alert');
  await expectVisible(alert);
  expect(await alert.innerText()).toMatch(/[\u0600-\u06FF]/);
  expect(await page.getByLabel('كلمة المرور الجديدة', { exact: true }).inputValue()).toBe('');

  await birth.getByLabel('اليوم').fill(indic('14'));
  await fillPasswords(page);
  await page.locator('main button[type="submit"]').click();
  await expectPath(page, '/home');
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('userState'))) ?? 'null')).toMatchObject({ userName: 'farah' });
  await closePage(page);
});

test('Lucie, reading in French on an English browser, types her date of birth day first and activates', async () => {
  const page = await openPageOn(browser, server.baseUrl);
  await page.goto('/activation');
  await acknowledgeCookieNotice(page);
  await chooseLanguage(page, /français|french/i);
  await page.waitForFunction(() => document.documentElement.lang === 'fr-FR');

  // Day, month, year as French writes a date, whatever the browser's own language.
  const birth = page.getByRole('group', { name: 'Date de naissance' });
  await expectVisible(birth);
  expect(await birth.locator('label').allTextContents()).toEqual(['Jour', 'Mois', 'Année']);
  expect(await inlineStart(page, 'Jour')).toBeLessThan(await inlineStart(page, 'Année'));

  // 31 February is pointed out in French and never becomes a date.
  await birth.getByLabel('Jour').fill('31');
  await birth.getByLabel('Mois').selectOption({ label: 'février' });
  await birth.getByLabel('Année').fill('1990');
  await expectVisible(birth.getByText('Saisissez un jour entre 1 et 28.'));
  await expectNoSeriousA11yViolations(page);

  await birth.getByLabel('Jour').fill('28');
  await page.getByLabel('Numéro de compte').fill('3000002');
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirmez le nouveau mot de passe', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.locator('main button[type="submit"]').click();
  await expectPath(page, '/home');
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('userState'))) ?? 'null')).toMatchObject({ userName: 'lucie' });
  await closePage(page);
});
