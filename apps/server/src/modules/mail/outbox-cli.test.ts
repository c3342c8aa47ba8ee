import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { rewardsOutput } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { queueMail } from './outbox.ts';
import type { OutboxEntry } from './listing.ts';

describe.each(dialects)('npm run rewards -- outbox on %s', (dialect) => {
  let database: TestDatabase;

  const cli = (...args: string[]) => rewardsOutput(database, ['outbox', ...args]);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    // The rows take their time from the clock: a set clock makes the order by time certain.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-25T09:00:00.000Z'));
      await database.db.transaction().execute(async (trx) => {
        await queueMail(trx, {
          clientId: 'acme',
          to: 'demo@example.com',
          locale: 'en-US',
          template: 'forgotUsername',
          params: { usernames: 'demo', link: 'http://localhost:3000/login' },
        });
      });
      vi.setSystemTime(new Date('2026-11-25T09:00:01.000Z'));
      await database.db.transaction().execute(async (trx) => {
        await queueMail(trx, {
          clientId: 'acme',
          to: 'demo@example.com',
          locale: 'en-US',
          template: 'resetPassword',
          params: { link: 'http://localhost:3000/reset-password?passwordGuid=g1', minutes: '60' },
        });
      });
    } finally {
      vi.useRealTimers();
    }
  });
  afterAll(async () => {
    await database.drop();
  });

  it('prints the latest mails as JSON, newest first, with their links', async () => {
    const mails = JSON.parse(await cli('--json')) as OutboxEntry[];
    expect(mails.map((m) => m.template)).toEqual(['resetPassword', 'forgotUsername']);
    const [reset] = mails;
    expect(Object.keys(reset ?? {}).sort()).toEqual(['createdAt', 'html', 'id', 'links', 'status', 'subject', 'template', 'text', 'to']);
    expect(reset).toMatchObject({
      to: 'demo@example.com',
      subject: 'Reset your Acme Rewards password',
      status: 'pending',
      links: ['http://localhost:3000/reset-password?passwordGuid=g1'],
    });
    expect(reset?.html).toContain('<html');
    expect(JSON.parse(await cli('--json', '--limit', '1', '--client', 'acme'))).toHaveLength(1);
    expect(JSON.parse(await cli('--json', '--client', 'globex'))).toEqual([]);
  });

  it('prints one line per mail for people', async () => {
    const lines = (await cli()).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\S+Z {2}pending {2}resetPassword {4}demo@example\.com {2}"Reset your Acme Rewards password" {2}http:\/\/localhost:3000\/reset-password\?passwordGuid=g1$/,
    );
  });
});
