/**
 * The participant's search keys (docs/decisions/045): the normalised forms a console search
 * matches by prefix, stored in indexed columns. They are computed here and nowhere else: every
 * writer of a participants row passes it through `withSearchKeys` (the row's type requires the
 * columns, so a writer that forgets does not compile), and migration 020 filled existing rows
 * with the same function. This file imports nothing, so a migration may use it.
 */

/**
 * Case, accents and repeated spaces ignored, as activation compares names
 * (modules/account/characteristics.ts): NFKD, combining marks dropped, lower case, runs of
 * white space as one space, trimmed. "  Müller " and "muller" give the same text. U+10FFFF,
 * which ends a prefix's range in the database, is dropped: a key never holds it.
 */
export function normaliseSearchText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\p{M}\u{10FFFF}]/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The participant's values the keys are made of, as the row spells them. */
export interface SearchKeySource {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  account_number: string;
}

/** The search columns in the order that breaks ties between a participant's matching keys. */
export const SEARCH_COLUMNS = ['search_first_last', 'search_last_first', 'search_username', 'search_email', 'search_account'] as const;
export type SearchColumn = (typeof SEARCH_COLUMNS)[number];
export type HiddenColumn = `${SearchColumn}_hidden`;

/** The column that says up to which query length a key is shown at another key of the participant. */
export function hiddenColumn(column: SearchColumn): HiddenColumn {
  return `${column}_hidden`;
}

/**
 * The keys ("first last": a prefix of it is a first name, or a first name and the start of
 * the last; "last first" the same for the last name) and, for each, `<key>_hidden`: a query
 * that matches this key and is at most that many UTF-16 units long also matches an earlier key
 * of the same participant (smaller, or equal and earlier in SEARCH_COLUMNS), where the
 * participant is shown instead. It is the longest common prefix with such a key (0: none), so
 * "maria.garcia7" (username) is hidden up to 5 by "maria garcia": "maria" finds Maria García
 * once, by name, "maria." by username. A search skips hidden keys in the index itself.
 */
export type SearchKeyColumns = Record<SearchColumn, string> & Record<HiddenColumn, number>;

export function searchKeyColumns(row: SearchKeySource): SearchKeyColumns {
  const first = normaliseSearchText(row.first_name);
  const last = normaliseSearchText(row.last_name);
  const keys: Record<SearchColumn, string> = {
    search_first_last: `${first} ${last}`.trim(),
    search_last_first: `${last} ${first}`.trim(),
    search_username: normaliseSearchText(row.username),
    search_email: normaliseSearchText(row.email),
    search_account: normaliseSearchText(row.account_number),
  };
  const hidden = (column: SearchColumn, rank: number): number => {
    const key = keys[column];
    let longest = 0;
    SEARCH_COLUMNS.forEach((other, otherRank) => {
      const earlier = keys[other];
      const order = compareCodePoints(earlier, key);
      if (otherRank !== rank && (order < 0 || (order === 0 && otherRank < rank)))
        longest = Math.max(longest, commonPrefixLength(earlier, key));
    });
    return longest;
  };
  return {
    ...keys,
    search_first_last_hidden: hidden('search_first_last', 0),
    search_last_first_hidden: hidden('search_last_first', 1),
    search_username_hidden: hidden('search_username', 2),
    search_email_hidden: hidden('search_email', 3),
    search_account_hidden: hidden('search_account', 4),
  };
}

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/** The row with its search keys made from its own values (any keys it carried are replaced). */
export function withSearchKeys<T extends SearchKeySource>(row: T): Omit<T, keyof SearchKeyColumns> & SearchKeyColumns {
  return { ...row, ...searchKeyColumns(row) };
}

/**
 * Code point order, which is the byte order of UTF-8: how SQLite (BINARY) and PostgreSQL
 * (collation "C") order the keys. JavaScript's `<` compares UTF-16 units, which puts U+E000 to
 * U+FFFF after the astral planes; the units are shifted so that surrogates sort last.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
