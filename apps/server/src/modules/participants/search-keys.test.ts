import { describe, expect, it } from 'vitest';
import { compareCodePoints, normaliseSearchText, searchKeyColumns } from './search-keys.ts';

describe('search keys', () => {
  it('normalise case, accents and spaces as activation compares names', () => {
    expect(normaliseSearchText('  Müller   Hans ')).toBe('muller hans');
    expect(normaliseSearchText('ZOË\tZwart')).toBe('zoe zwart');
    expect(normaliseSearchText('Se\u0301an')).toBe(normaliseSearchText('Seán'));
    expect(normaliseSearchText('ab\u{10FFFF}c')).toBe('abc');
  });

  it('make "first last", "last first", and how far each key is hidden by an earlier one', () => {
    const keys = searchKeyColumns({
      username: 'Maria.Garcia7',
      first_name: 'María',
      last_name: 'García',
      email: 'maria.garcia.7@Example.com',
      account_number: ' 1000001 ',
    });
    expect(keys).toEqual({
      search_first_last: 'maria garcia',
      search_first_last_hidden: 0,
      search_last_first: 'garcia maria',
      search_last_first_hidden: 0,
      search_username: 'maria.garcia7',
      // "maria.garcia.7@…" is smaller and shares "maria.garcia"; "maria garcia" shares "maria".
      search_username_hidden: 12,
      search_email: 'maria.garcia.7@example.com',
      search_email_hidden: 5,
      search_account: '1000001',
      search_account_hidden: 0,
    });
    // Equal keys: the one of the earlier column is shown, the other is hidden for every query.
    const same = searchKeyColumns({ username: 'dana', first_name: 'Dana', last_name: '', email: 'zz@x.example', account_number: '1' });
    expect(same).toMatchObject({
      search_first_last: 'dana',
      search_first_last_hidden: 0,
      search_last_first: 'dana',
      search_last_first_hidden: 4,
      search_username: 'dana',
      search_username_hidden: 4,
    });
  });

  it('compare in code point order, as the databases do, not in UTF-16 units', () => {
    expect('\uffff' < '\u{1F600}').toBe(false);
    expect(compareCodePoints('\uffff', '\u{1F600}')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('b', 'abc')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});
