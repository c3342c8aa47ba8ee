// Content pages (rules, FAQs, privacy texts) and the contact form, in a real browser on the demo
// program's texts. Whoever signs in is the story's own participant (decision 071): closing the
// cookie notice, a message, an acknowledgement are hers alone.
import {
  acknowledgeCookieNotice,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  newParticipant,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';
import { expect } from 'vitest';

/** A participant of the story's own in both of the demo's programs. */
const inBothPrograms = async () =>
  (await newParticipant({ firstName: 'Dana', programs: ['Sales Incentive 2026', 'Service Awards'], points: 12_500 })).username;

test('a participant reads the rules of both her programs', async ({ page }) => {
  await signIn(page, await inBothPrograms());
  await acknowledgeCookieNotice(page); // it covers the footer
  await page.getByRole('contentinfo').getByRole('link', { name: /rules/i }).click();
  await expectPath(page, '/rules');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByRole('heading', { level: 1, name: 'Program rules' }));
  await expectVisible(dialog.getByRole('region', { name: 'Sales Incentive 2026' }).getByText('A new customer contract signed'));
  await expectVisible(dialog.getByRole('region', { name: 'Service Awards' }).getByRole('table'));
  await expectNoSeriousA11yViolations(page);
});

test('on a 320 px phone the rules dialog and its points table fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signIn(page, await inBothPrograms());
  await acknowledgeCookieNotice(page);
  await page.goto('/rules');
  const dialog = page.getByRole('dialog');
  const table = dialog.getByRole('region', { name: 'Sales Incentive 2026' }).getByRole('table');
  await expectVisible(table);
  const box = await dialog.boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
  // Both columns readable without scrolling sideways: the points are on the screen.
  const points = table.getByRole('columnheader').last();
  const header = await points.boundingBox();
  expect((header?.x ?? 0) + (header?.width ?? 0)).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0));
});

test('a participant opens the FAQs and expands a question', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  await page.goto('/faqs');
  const dialog = page.getByRole('dialog');
  const question = dialog.getByText('Do my points expire?');
  await expectVisible(question);
  const answer = dialog.getByText(/valid for 24 months/);
  await answer.waitFor({ state: 'hidden' });
  await question.click();
  await expectVisible(answer);
  await expectNoSeriousA11yViolations(page);
});

test('a participant sends a message to the support desk and sees the success message', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  await page.goto('/contact');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByRole('heading', { name: 'Contact us' }));

  // Empty: the browser check stops it before anything is sent.
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expectVisible(dialog.getByText('Please choose a topic.'));
  await expectNoSeriousA11yViolations(page);

  await dialog.getByLabel('Topic').selectOption('order');
  await dialog.getByLabel('Subject').fill('Where is my order?');
  await dialog.getByLabel('Message').fill('I ordered headphones two weeks ago and they have not arrived.');
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expectVisible(dialog.getByText('Thanks for your message. We will get back to you soon.'));
  await expectNoSeriousA11yViolations(page);
});

test('an anonymous visitor opens the FAQs and the privacy policy', async ({ page }) => {
  await page.goto('/faqs');
  await expectPath(page, '/faqs');
  await expectVisible(page.getByRole('dialog').getByText('What are Acme Points?'));
  await expectNoSeriousA11yViolations(page);

  await page.goto('/privacy-shield');
  await expectPath(page, '/privacy-shield');
  await expectVisible(page.getByRole('dialog').getByRole('heading', { name: 'What we collect' }));
  await expectNoSeriousA11yViolations(page);
});

test('a participant reads the privacy notice and acknowledges it', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  await page.goto('/privacy-notice');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByText('Version 1'));
  await expectVisible(dialog.getByRole('heading', { name: 'What we store' }));
  // Not acknowledged yet: the notice asks.
  await expectVisible(dialog.getByRole('button', { name: 'I acknowledge' }));
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'I acknowledge' }).click();
  await expectVisible(dialog.getByText('You have acknowledged this version of the privacy notice.'));
  // The cookie notice asks no more.
  await page.getByRole('region', { name: /cookie/i }).waitFor({ state: 'hidden' });
  await expectNoSeriousA11yViolations(page);
});
