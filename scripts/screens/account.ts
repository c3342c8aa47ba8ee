import { ACTIVATION_FIELDS } from '@rewards/contract/activation-fields';
import type { Page } from 'playwright-core';
import { acknowledgeCookieNotice, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit, ScreenLocale } from './kit.ts';

const GUID = 'q8Yk3vWm2NcZ0pLrT5sXa7bHd9eFg1jK4uQo6iRyVwE';

/** Opens an anonymous page in the language, with the cookie notice closed (it hides the form's end). */
async function open(kit: ScreenKit, page: Page, path: string, locale: ScreenLocale): Promise<void> {
  await page.goto(path);
  await expectVisible(page.locator('main h1'));
  await acknowledgeCookieNotice(page); // found by its English name, so before the switch
  await kit.switchTo(page, locale);
}

/**
 * Screens of the account capability (issue 7): activation (empty, then after a submit with
 * nothing filled in), forgot user id and forgot password (form and success), reset password
 * (form with the rules panel partly ticked, and the dead-link state), at each width and language.
 * The two forgot calls are answered in the browser: their reply is the same whatever the input,
 * and no mail needs to leave for a picture.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      const name = (screen: string) => `account-${screen}-${locale.code}-${width}`;
      await page.route(/\/api\/v1\.0\/forgot(Username|Password)$/, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ result: 'accepted' }) }),
      );

      await open(kit, page, '/activation', locale);
      await kit.shoot(page, name('activation'));
      await page.locator('main input[autocomplete="new-password"]').first().fill('garden7');
      await page.locator('main button[type="submit"]').click();
      await expectVisible(page.locator('main .field__error'));
      await kit.shoot(page, name('activation-invalid'));

      await open(kit, page, '/forgot-user-id', locale);
      await kit.shoot(page, name('forgot-user-id'));
      await page.locator('main input[type="email"]').fill('dana@example.com');
      await page.locator('main button[type="submit"]').click();
      await expectVisible(page.locator('main .ui-alert--success'));
      await kit.shoot(page, name('forgot-user-id-success'));

      await open(kit, page, '/forgot-password', locale);
      await kit.shoot(page, name('forgot-password'));
      await page.locator('main input[autocomplete="username"]').fill('demo');
      await page.locator('main input[type="email"]').fill('demo@example.com');
      await page.locator('main button[type="submit"]').click();
      await expectVisible(page.locator('main .ui-alert--success'));
      await kit.shoot(page, name('forgot-password-success'));

      await open(kit, page, `/reset-password?passwordGuid=${GUID}`, locale);
      await page.locator('main input[autocomplete="new-password"]').first().fill('Garden7');
      await kit.shoot(page, name('reset-password'));

      await open(kit, page, '/reset-password', locale);
      await expectVisible(page.locator('main .ui-alert--warning'));
      await kit.shoot(page, name('reset-password-expired'));
      await page.context().close();
    }
  }

  // A client asking for a date of birth (decisions 037, 039): the operator makes Acme ask for it,
  // as `rewards clients update --activation-fields` does, and sets it back afterwards. February
  // 31 is typed, to show the message.
  const locales: ScreenLocale[] = [
    ...kit.locales.filter((l) => l.code === 'en-US'),
    { code: 'fr-FR', name: /français|french/i },
    ...kit.locales.filter((l) => l.code !== 'en-US'),
  ];
  await setAcmeFields(kit, 'accountNumber,dateOfBirth', '.date-field', true);
  try {
    for (const locale of locales) {
      for (const width of kit.widths) {
        const page = await kit.newPage(width);
        await open(kit, page, '/activation', locale);
        const birth = page.locator('main .date-field');
        await birth.locator('.date-field__part--day input').fill('31');
        await birth.locator('select').selectOption('2');
        await birth.locator('.date-field__part--year input').fill('1990');
        await expectVisible(birth.locator('.date-field__error'));
        await kit.shoot(page, `account-activation-birth-${locale.code}-${width}`);
        await page.context().close();
      }
    }
    // Every field the operator command accepts, each with its label in the page's language.
    await setAcmeFields(kit, ACTIVATION_FIELDS.join(','), 'input[type=email]', true);
    for (const locale of kit.locales) {
      const page = await kit.newPage(375);
      await open(kit, page, '/activation', locale);
      await kit.shoot(page, `account-activation-all-fields-${locale.code}-375`);
      await page.context().close();
    }
  } finally {
    await setAcmeFields(kit, 'accountNumber,lastName', '.date-field', false);
  }
}

/** Sets Acme's activation fields and waits until the portal's cached client data shows them (the form has, or has not, `sign`). */
async function setAcmeFields(kit: ScreenKit, fields: string, sign: string, present: boolean): Promise<void> {
  await kit.rewards(['clients', 'update', '--client', 'acme', '--activation-fields', fields]);
  const page = await kit.newPage(1280);
  const deadline = Date.now() + 30_000;
  for (;;) {
    await page.goto('/activation');
    await expectVisible(page.locator('main h1'));
    if ((await page.locator(`main form ${sign}`).count()) > 0 === present) break;
    if (Date.now() > deadline) throw new Error(`Acme's activation fields did not become ${fields}`);
    await page.waitForTimeout(1000);
  }
  await page.context().close();
}
