import type { Page } from 'playwright-core';
import { acknowledgeCookieNotice, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

/** Opens a content modal and waits for its text, not its loading state. */
async function open(page: Page, path: string, ready: string): Promise<void> {
  await page.goto(path);
  await expectVisible(page.getByRole('dialog').locator(ready));
}

/** Screens of the content capability (issue 5): rules, FAQs, privacy texts and contact. */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    const name = (screen: string, width: number) => `content-${screen}-${locale.code}-${width}`;

    const page = await kit.newPage(1280);
    await kit.signIn(page, 'demo');
    await kit.switchTo(page, locale);
    // In English the notice still asks for the acknowledgement; given there, Arabic shows it given.
    await open(page, '/privacy-notice', '.md h2');
    await kit.shoot(page, name('privacy-notice', 1280));
    const acknowledge = page.getByRole('dialog').locator('.content__ack button');
    if (await acknowledge.isVisible()) {
      await acknowledge.click();
      await expectVisible(page.getByRole('dialog').locator('.content__ack .ui-alert'));
    }

    await open(page, '/rules', '.rules__program .md table');
    await kit.shoot(page, name('rules', 1280));

    await open(page, '/faqs', '.faqs__question');
    await page.locator('.faqs__question').nth(3).click();
    await kit.shoot(page, name('faqs', 1280));

    await open(page, '/privacy-shield', '.md h2');
    await kit.shoot(page, name('privacy-policy', 1280));

    await open(page, '/contact', 'form');
    await kit.shoot(page, name('contact', 1280));
    const dialog = page.getByRole('dialog');
    await dialog.locator('select').selectOption('ots');
    await dialog.locator('input[type=text]').fill(locale.code === 'ar' ? 'الرمز لا يعمل' : 'My code does not work');
    await dialog
      .locator('textarea')
      .fill(locale.code === 'ar' ? 'أدخلت الرمز ولكن لم تُضف النقاط.' : 'I entered the code but no points were added.');
    await dialog.locator('button[type=submit]').click();
    await expectVisible(dialog.locator('.contact__done'));
    await kit.shoot(page, name('contact-success', 1280));
    await page.context().close();

    const phone = await kit.newPage(375);
    await kit.signIn(phone, 'demo');
    await kit.switchTo(phone, locale);
    await acknowledgeCookieNotice(phone); // already done on the account above; harmless
    await open(phone, '/rules', '.rules__program .md table');
    await kit.shoot(phone, name('rules', 375));
    await open(phone, '/contact', 'form');
    await kit.shoot(phone, name('contact', 375));
    await phone.getByRole('dialog').locator('button[type=submit]').click();
    await expectVisible(phone.getByRole('dialog').locator('.content-field__error').first());
    await kit.shoot(phone, name('contact-errors', 375));
    await phone.context().close();
  }
}
