// On-the-spot codes on home: Dana redeems a code, both balances follow at once; a used code is refused.
import { sql } from 'kysely';
import { expect, inject } from 'vitest';
import { databaseConfigFromUrl } from '../../server/src/config.ts';
import { createDatabase } from '../../server/src/db/database.ts';
import { normaliseOtsCode, otsCodeHash } from '../../server/src/modules/ots/code.ts';
import { expectNoSeriousA11yViolations, expectVisible, signIn, test } from './harness/browser.ts';

// The demo codes this file owns (docs/decisions/008-on-the-spot-codes.md); no other test uses them.
const CODE = { typed: 'acme 7k3f q9tx', value: 250 };
const USED_CODE = 'ACME-Q4RD-9MTE';

/**
 * Puts Dana and the code back as the seed left them (no entry, balance, unused code, no failed
 * attempts), since every browser test file shares this server and expects her 12,500 points.
 */
async function undoRedeem(): Promise<void> {
  const db = createDatabase(databaseConfigFromUrl(inject('databaseUrl')));
  try {
    await db.transaction().execute(async (trx) => {
      const demo = await trx
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', 'acme')
        .where('username_key', '=', 'demo')
        .executeTakeFirstOrThrow();
      const code = await trx
        .selectFrom('ots_codes')
        .select(['id', 'value', 'status'])
        .where('client_id', '=', 'acme')
        .where('code_hash', '=', otsCodeHash(normaliseOtsCode(CODE.typed)))
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('attempt_limits').where('client_id', '=', 'acme').where('subject', '=', `ots:${demo.id}`).execute();
      if (code.status !== 'redeemed') return;
      await trx.deleteFrom('ledger_entries').where('client_id', '=', 'acme').where('reference', '=', `ots:${code.id}`).execute();
      await trx
        .updateTable('participants')
        .set({ balance: sql<number>`balance - ${code.value}` })
        .where('id', '=', demo.id)
        .execute();
      await trx
        .updateTable('ots_codes')
        .set({ status: 'unused', redeemed_by: null, redeemed_at: null })
        .where('id', '=', code.id)
        .execute();
    });
  } finally {
    await db.destroy();
  }
}

test('Dana redeems a code: the header and home show the new balance at once; a used code is refused', async ({ page }) => {
  try {
    await signIn(page);
    const main = page.getByRole('main');
    await expectVisible(main.getByRole('link', { name: '12,500' }));
    await expectVisible(page.getByRole('link', { name: '12,500 Acme Points' }));

    const box = main.getByRole('region', { name: /on-the-spot code/i });
    const input = box.getByRole('textbox', { name: 'On-the-spot code' });
    const submit = box.getByRole('button', { name: 'Redeem code' });
    expect(await submit.isDisabled()).toBe(true);
    await input.fill(CODE.typed);
    await submit.click();

    await expectVisible(box.getByRole('status').getByText('Code accepted! 250 Acme Points added to your balance.'));
    await expectVisible(main.getByRole('link', { name: '12,750' }));
    await expectVisible(page.getByRole('link', { name: '12,750 Acme Points' }));
    expect(await input.inputValue()).toBe('');
    // The button that had the focus went disabled; the focus is back in the input, not lost.
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.getByRole('button', { name: /Redeemed/ }).isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await input.fill(USED_CODE);
    await box.getByRole('button', { name: 'Redeem code' }).click();
    const alert = box.getByRole('alert');
    await expectVisible(alert.getByText('That code has already been redeemed.'));
    expect(await box.getByRole('status').count()).toBe(0);
    await expectVisible(main.getByRole('link', { name: '12,750' }));
    await expectNoSeriousA11yViolations(page);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
  } finally {
    await undoRedeem();
  }
});

test('after that story Dana is back at 12,500 points, as the other browser tests expect', async ({ page }) => {
  await signIn(page);
  await expectVisible(page.getByRole('main').getByRole('link', { name: '12,500' }));
});
