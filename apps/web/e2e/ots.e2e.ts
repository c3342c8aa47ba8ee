// On-the-spot codes on home: a participant redeems a code, both balances follow at once; a used
// code is refused. The participant (12,500 points, as the demo's Dana has) and the codes are the
// story's own (decision 071): nobody else's balance, attempt counter or code moves.
import { expect } from 'vitest';
import { expectNoSeriousA11yViolations, expectVisible, newCodes, newParticipant, signIn, test } from '../../../test-support/e2e/browser.ts';

test('a participant redeems a code: the header and home show the new balance at once; a used code is refused', async ({ page }) => {
  const [dana, [code]] = await Promise.all([newParticipant({ firstName: 'Dana', points: 12_500 }), newCodes(1, 250)]);
  await signIn(page, dana.username);
  const main = page.getByRole('main');
  await expectVisible(main.getByRole('link', { name: '12,500' }));
  await expectVisible(page.getByRole('link', { name: '12,500 Acme Points' }));

  const box = main.getByRole('region', { name: /on-the-spot code/i });
  const input = box.getByRole('textbox', { name: 'On-the-spot code' });
  const submit = box.getByRole('button', { name: 'Redeem code' });
  expect(await submit.isDisabled()).toBe(true);
  // Typed as people type it: lower case, spaces instead of dashes.
  await input.fill(code!.toLowerCase().replaceAll('-', ' '));
  await submit.click();

  await expectVisible(box.getByRole('status').getByText('Code accepted! 250 Acme Points added to your balance.'));
  await expectVisible(main.getByRole('link', { name: '12,750' }));
  await expectVisible(page.getByRole('link', { name: '12,750 Acme Points' }));
  expect(await input.inputValue()).toBe('');
  // The button that had the focus went disabled; the focus is back in the input, not lost.
  expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await box.getByRole('button', { name: /Redeemed/ }).isDisabled()).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // The same code again: redeemed already, nothing added.
  await input.fill(code!);
  await box.getByRole('button', { name: 'Redeem code' }).click();
  const alert = box.getByRole('alert');
  await expectVisible(alert.getByText('That code has already been redeemed.'));
  expect(await box.getByRole('status').count()).toBe(0);
  await expectVisible(main.getByRole('link', { name: '12,750' }));
  await expectNoSeriousA11yViolations(page);
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await alert.waitFor({ state: 'detached' });
});
