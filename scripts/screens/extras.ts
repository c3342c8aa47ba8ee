import type { Page } from 'playwright-core';
import { expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

const MINUTE = 60_000;

/** Brings up the idle warning by moving the page's clock past the 27th idle minute (30-minute portal). */
async function showIdleWarning(page: Page): Promise<void> {
  await page.clock.fastForward(27 * MINUTE + 5_000);
  await expectVisible(page.getByRole('alertdialog'));
  // Freeze the countdown so the picture does not depend on how long the shot takes.
  await page.clock.pauseAt(Date.now() + 27 * MINUTE + 10_000);
}

/**
 * Texts on the page that are not inside [[...]] in the pseudo-locale: hard-coded text, or data
 * (names, numbers, language names). Visible text and the attributes assistive technology reads.
 */
async function textsNotFromBundles(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    // Keys may nest ([[title.format [[title.home]] …]]) or be split by an element inside (Trans).
    const outside = (text: string) => {
      let rest = text;
      for (let before = ''; before !== rest;) {
        before = rest;
        rest = rest.replace(/\[\[[^[\]]*\]\]/g, ' ');
      }
      return rest
        .replace(/\[\[[^\]]*$/, ' ')
        .replace(/^[^[]*\]\]/, ' ')
        .replace(/[\s\d.,:;·()©|×/+\-–—!?]+/g, ' ')
        .trim();
    };
    const visibleText = new Map<Element, string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, template, [hidden]')) continue;
      visibleText.set(parent, (visibleText.get(parent) ?? '') + (node.textContent ?? ''));
    }
    for (const text of visibleText.values()) {
      const rest = outside(text);
      if (rest) found.add(`text: ${rest}`);
    }
    for (const element of document.querySelectorAll('[aria-label], [alt], [title], [placeholder]')) {
      for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
        const value = element.getAttribute(name);
        const rest = value ? outside(value) : '';
        if (rest) found.add(`${name}: ${rest}`);
      }
    }
    const title = outside(document.title);
    if (title) found.add(`document.title: ${title}`);
    return [...found];
  });
}

async function listHardCoded(page: Page, scene: string): Promise<void> {
  const texts = await textsNotFromBundles(page);
  console.log(`${scene}: not from the bundles (hard-coded text or data):\n${texts.map((t) => `  ${t}`).join('\n') || '  (none)'}`);
}

/** Screens of the extras capability (issue 5): the idle warning and the pseudo-locale. */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await page.clock.install();
      await kit.signIn(page, 'demo');
      await kit.switchTo(page, locale);
      await showIdleWarning(page);
      await kit.shoot(page, `idle-warning-${locale.code}-${width}`);
      await page.context().close();
    }
  }

  // Pseudo-locale: every text from the bundles reads [[key]]; anything else is hard-coded.
  const login = await kit.newPage(1280);
  await login.goto('/login?pseudo=1');
  await expectVisible(login.locator('main input[type=password]'));
  await kit.shoot(login, 'pseudo-login-1280');
  await listHardCoded(login, 'pseudo-login');
  await login.context().close();

  const page = await kit.newPage(1280);
  await kit.signIn(page, 'demo');
  await kit.switchTo(page, kit.locales[0]!);
  await page.goto('/home?pseudo=1');
  await expectVisible(page.locator('main a[href="/activity-history"]'));
  await kit.shoot(page, 'pseudo-home-1280');
  await listHardCoded(page, 'pseudo-home');
  await page.getByRole('contentinfo').getByRole('link', { name: '[[footer.faqs]]' }).click();
  await expectVisible(page.getByRole('dialog'));
  await kit.shoot(page, 'pseudo-home-faqs-modal-1280');
  await listHardCoded(page, 'pseudo-faqs-modal');
  await page.goto('/profile');
  await expectVisible(page.getByRole('dialog'));
  await kit.shoot(page, 'pseudo-profile-modal-1280');
  await listHardCoded(page, 'pseudo-profile-modal');
  await page.context().close();
}
