// Translations and content in the console (issue 20 §4, decision 066): a program manager, enrolled
// just now, finds Acme's own English wording of the sign-in intro not yet translated into French,
// translates it with a reason and sees it on the French portal (polled, with a deadline); then
// writes the French FAQs in Markdown and sees the portal's own rendering as the preview, script
// and unsafe links removed. Acme's texts are every story's: whatever the story changed is put
// back when it ends, passed or failed (decision 071).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { ContentEntry } from '@rewards/contract/console-translations';
import { chooseLanguage } from '../../../test-support/e2e/pages.ts';
import {
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  openPortal,
  portalAnswers,
  restoreAcmeAfterTest,
  rewards,
  test,
} from './harness/console.ts';

const ENGLISH = 'Welcome to {clientName}, where every sale earns Acme Points.';
const FRENCH = 'Bienvenue chez {clientName}, où chaque vente rapporte des Acme Points.';
const FAQ = [
  '## Comment gagner des points ?',
  '',
  'En vendant. <script>alert(1)</script>',
  '',
  '- [Notre aide](https://acme.example/aide)',
  '- [piège](javascript:alert(2))',
].join('\n');

/** The French sign-in page's intro, in a new context each time (the portal keeps a bundle per browser tab). */
async function frenchIntro(browser: Browser): Promise<string> {
  const portal = await openPortal(browser);
  try {
    await portal.goto('/login');
    await portal.getByRole('heading', { level: 1 }).waitFor();
    await chooseLanguage(portal, /Français/);
    await portal.waitForFunction(() => document.documentElement.lang === 'fr-FR');
    await portal.getByRole('heading', { name: 'Connexion', level: 1 }).waitFor();
    return (await portal.locator('main').textContent()) ?? '';
  } finally {
    await closePage(portal);
  }
}

test('a program manager translates a missing French text and sees it on the French portal; edits the FAQs with a preview', async ({
  browser,
}) => {
  const { page } = await enrolNewStaff(browser, 'Tess Translator');
  const dir = mkdtempSync(join(tmpdir(), 'rewards-texts-'));
  // When the story ends: no wording of Acme's own for the intro, and the French FAQs as they are now.
  // Read in the page: only the browser knows console.localhost (RFC 6761).
  const faqsBefore = await page.evaluate(async () => {
    const reply = await fetch('/api/console/v1/clients/acme/content/fr-FR/faqs');
    if (!reply.ok) throw new Error(`GET the French FAQs: ${reply.status}`);
    return (await reply.json()) as ContentEntry;
  });
  await restoreAcmeAfterTest(
    () => [],
    async () => {
      for (const locale of ['en-US', 'fr-FR']) {
        await rewards([
          'clients',
          'translations',
          'remove',
          '--client',
          'acme',
          '--locale',
          locale,
          '--key',
          'login.intro',
          '--reason',
          'browser test ended',
        ]);
      }
      if (faqsBefore.body === null) {
        await rewards([
          'clients',
          'content',
          'remove',
          '--client',
          'acme',
          '--locale',
          'fr-FR',
          '--key',
          'faqs',
          '--reason',
          'browser test ended',
        ]);
      } else {
        const content = join(dir, 'content.json');
        writeFileSync(content, JSON.stringify({ 'fr-FR': { faqs: faqsBefore.body } }));
        await rewards(['clients', 'content', 'import', content, '--client', 'acme']);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  );

  // Acme's own English wording of the intro, as an operator would import it: French still shows the shipped text.
  const bundle = join(dir, 'acme.en-US.json');
  writeFileSync(bundle, JSON.stringify({ login: { intro: ENGLISH } }));
  await rewards(['clients', 'translations', 'import', bundle, '--client', 'acme']);

  // Translations open on French, the keys to translate: Acme's intro is there, not translated.
  await page.getByRole('link', { name: 'Translations' }).click();
  await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
  const row = page.getByRole('row', { name: /login\.intro/ });
  await expectVisible(row.getByText('Not translated'));
  expect(await page.getByLabel('Language', { exact: true }).inputValue()).toBe('fr-FR');
  await expectVisible(row.getByText(ENGLISH));
  await checkScreen(page, '80-translations-to-translate');

  await row.getByRole('button', { name: 'Edit login.intro' }).click();
  const dialog = page.getByRole('dialog', { name: 'login.intro in fr-FR' });
  await dialog.getByLabel('Text in fr-FR').fill(FRENCH);
  await dialog.getByLabel('Reason').fill('Acme wording, French version from the translator');
  await checkScreen(page, '81-translations-edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText('login.intro saved.', { exact: false }));
  // Translated now: out of the "to translate" list; the search finds it with its French text.
  expect(await page.getByRole('row', { name: /login\.intro/ }).count()).toBe(0);
  await page.getByRole('radio', { name: /^All/ }).check();
  await page.getByLabel('Search', { exact: true }).fill('chaque vente');
  await expectVisible(page.getByRole('row', { name: /login\.intro/ }).getByText('Translated'));

  // The French portal shows it within the cache time (the audit entry with before and after is the
  // API tests'): the portal answers the French texts with it (polled, with a deadline), then its
  // sign-in page, opened in French, shows it.
  const frenchTexts = async () =>
    Object.values(
      (JSON.parse(await portalAnswers('bundle/fr-FR')) as { bundleList: Record<string, { properties: Record<string, string> }> })
        .bundleList['fr-FR']!.properties,
    );
  await expect.poll(frenchTexts, { timeout: 30_000, interval: 250 }).toContain(FRENCH);
  expect(await frenchIntro(browser)).toContain('Bienvenue chez Acme Rewards, où chaque vente rapporte des Acme Points.');

  // Content: the French FAQs in Markdown, the preview as the portal renders it.
  await page.getByRole('link', { name: 'Content', exact: true }).click();
  await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor();
  await page.getByLabel('Language', { exact: true }).selectOption('fr-FR');
  await page.getByLabel('Text', { exact: true }).selectOption('faqs');
  const markdown = page.getByLabel('Markdown (fr-FR)');
  await markdown.fill(FAQ);
  const preview = page.getByRole('region', { name: 'Preview, as the portal shows it' });
  await expectVisible(preview.getByRole('heading', { name: 'Comment gagner des points ?' }));
  await expectVisible(preview.getByText('<script>alert(1)</script>', { exact: false }));
  expect(await preview.locator('script').count()).toBe(0);
  expect(await preview.getByRole('link', { name: 'Notre aide' }).getAttribute('rel')).toBe('noopener noreferrer');
  expect(await preview.getByRole('link', { name: 'piège' }).count()).toBe(0);
  await checkScreen(page, '82-content-preview');
  await page.getByRole('button', { name: 'Save' }).click();
  const save = page.getByRole('dialog', { name: 'FAQs in fr-FR' });
  await save.getByLabel('Reason').fill('New FAQ for the spring campaign');
  await save.getByRole('button', { name: 'Save' }).click();
  await save.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText('Saved. Participants see it now.'));

  // And taken away again: the French FAQs are no longer there, the editor is empty.
  await page.getByRole('button', { name: 'Remove this text' }).click();
  const removeText = page.getByRole('dialog', { name: 'Remove FAQs in fr-FR' });
  await removeText.getByLabel('Reason').fill('Spring campaign FAQ withdrawn');
  await removeText.getByRole('button', { name: 'Remove this text' }).click();
  await removeText.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText('Removed. Participants no longer see it in this language.'));
  expect(await markdown.inputValue()).toBe('');

  // Acme's own English intro removed in the console: the shipped one shows again.
  // The translations page first (the content page had a Language field too), then its English texts.
  await page.getByRole('link', { name: 'Translations' }).click();
  await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
  await page.getByLabel('Language', { exact: true }).selectOption('en-US');
  await page.getByRole('table', { name: 'Texts in en-US' }).waitFor();
  await page.getByRole('radio', { name: /^Client’s own wording/ }).check();
  await page.getByRole('button', { name: 'Remove the client’s wording of login.intro' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove the client’s wording of login.intro in en-US' });
  await remove.getByLabel('Reason').fill('Browser test done: back to the standard wording');
  await remove.getByRole('button', { name: 'Remove wording' }).click();
  await remove.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText('The client’s wording of login.intro is removed.', { exact: false }));
  await closePage(page);
}, 300_000); // two commands (a Node process each) and portal pages besides the console: more than the default on 2 busy cores
