import { describe, expect, it } from 'vitest';
import { createDescriber } from './describe.ts';

/** The history's words for a stored entry, in the reader's language (decision 101 for the parameters kept in several languages). */
describe('an entry described in the reader language', () => {
  const bundle = { 'ledger.events.earned': '{rules}', 'ledger.events.return': 'إرجاع {eventId}: {rules}' };
  const rules = JSON.stringify({
    rules: { 'en-US': 'Store visit: 60 points a visit', ar: 'Store visit: ٦٠ نقطة لكل زيارة', fr: 'Visite : 60 points' },
  });
  const entry = (params: string, key = 'ledger.events.earned') => ({
    description: 'as posted',
    description_key: key,
    description_params: params,
  });

  it('takes the words of the reader language, else of the same language, else the first', () => {
    expect(createDescriber(bundle, 'ar')(entry(rules))).toBe('Store visit: ٦٠ نقطة لكل زيارة');
    expect(createDescriber(bundle, 'fr-FR')(entry(rules))).toBe('Visite : 60 points');
    expect(createDescriber(bundle, 'de-DE')(entry(rules))).toBe('Store visit: 60 points a visit');
  });

  it('fills a translated template with them beside plain parameters', () => {
    const params = JSON.stringify({ eventId: 'R-1', rules: { 'en-US': 'Store visit', ar: 'زيارة' } });
    expect(createDescriber(bundle, 'ar')(entry(params, 'ledger.events.return'))).toBe('إرجاع R-1: زيارة');
  });

  it('keeps the words as posted when no bundle knows the key', () => {
    expect(createDescriber({}, 'ar')(entry(rules))).toBe('as posted');
  });
});
