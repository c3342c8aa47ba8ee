import { describe, expect, it } from 'vitest';
import { StatementQuery, StatementReply } from './index.ts';

describe('the account statement on the wire', () => {
  it('needs a bounded username and a well-formed locale', () => {
    expect(StatementQuery.parse({ username: ' demo ', locale: 'fr-FR' })).toEqual({ username: 'demo', locale: 'fr-FR' });
    for (const query of [
      { locale: 'en-US' },
      { username: '', locale: 'en-US' },
      { username: 'd'.repeat(101), locale: 'en-US' },
      { username: 'demo' },
      { username: 'demo', locale: '../x' },
    ]) {
      expect(StatementQuery.safeParse(query).success).toBe(false);
    }
  });

  it('carries whole points only', () => {
    const entry = { date: '2026-03-01T09:30:00.000Z', description: 'Bonus', amountOrAward: 10 };
    expect(StatementReply.safeParse({ accountNumber: '1', accountHistoryList: [entry] }).success).toBe(true);
    expect(StatementReply.safeParse({ accountNumber: '1', accountHistoryList: [{ ...entry, amountOrAward: 1.5 }] }).success).toBe(false);
  });
});
