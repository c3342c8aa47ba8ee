import { randomUUID } from 'node:crypto';
import { withSearchKeys } from '../../modules/participants/search-keys.ts';
import type { DemoSeedContext } from './demo-context.ts';

/**
 * A second participant waiting for activation (issue 7), so one can be activated (`pending`,
 * 1000004) while the other still shows the "not activated yet" warning. French, so activating
 * shows the switch to the participant's language.
 */
export const WAITING = { username: 'waiting', accountNumber: '1000008', lastName: 'Waiting' } as const;

export async function seedDemoAccount(ctx: DemoSeedContext): Promise<void> {
  await ctx.trx
    .insertInto('participants')
    .values(
      withSearchKeys({
        id: randomUUID(),
        client_id: ctx.clientId,
        username: WAITING.username,
        username_key: WAITING.username,
        email: `${WAITING.username}@example.com`,
        first_name: 'Wes',
        last_name: WAITING.lastName,
        password_hash: ctx.demoPasswordHash,
        status: 'pending',
        locale: 'fr-FR',
        account_number: WAITING.accountNumber,
        offers_merchandise: 1,
        offers_experiences: 1,
        ots_enabled: 1,
        privacy_ack_version: 0,
        balance: null,
        created_at: ctx.now.toISOString(),
      }),
    )
    .execute();
}
