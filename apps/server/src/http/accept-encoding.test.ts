import { describe, expect, it } from 'vitest';
import { etagMatches, preferredCoding } from './accept-encoding.ts';

describe('the coding chosen for an Accept-Encoding header', () => {
  it.each([
    // What browsers send: brotli, the smallest.
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate, br', 'br'],
    ['BR', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate, gzip;q=0.5', 'gzip'],
    // The caller's weights come first, the server's order only breaks ties.
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
    ['br ; q=0.9 , gzip ; q=0.1', 'br'],
    ['*', 'br'],
    // A wildcard stands for codings the header does not name, never for one it refuses.
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0, *', undefined],
    // Identity named with a higher weight wins.
    ['identity, br;q=0.5', undefined],
  ] as const)('%s → %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });

  it.each([
    undefined,
    '',
    'identity',
    'deflate, zstd',
    'br;q=0',
    'br;q=0.000',
    'br;q=0, gzip;q=0',
    'identity;q=0',
    '*;q=0',
    'br;q=2',
    'br;q=x',
    ' , ;',
  ])('sends identity for %j', (header) => {
    expect(preferredCoding(header)).toBeUndefined();
  });

  it('answers the same header the same way every time (it is remembered)', () => {
    for (let i = 0; i < 3; i++) expect(preferredCoding('gzip;q=1, br;q=0.1')).toBe('gzip');
  });
});

describe('If-None-Match against an entity tag', () => {
  it('matches the tag itself, in a list, weakly, and *', () => {
    expect(etagMatches('"a-br"', '"a-br"')).toBe(true);
    expect(etagMatches('"x", "a-br"', '"a-br"')).toBe(true);
    expect(etagMatches('W/"a-br"', '"a-br"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
  });

  it('does not match another form of the same body, nothing, or an untagged body', () => {
    expect(etagMatches('"a"', '"a-br"')).toBe(false);
    expect(etagMatches('"a-gzip"', '"a-br"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
    expect(etagMatches('"a"', undefined)).toBe(false);
  });
});
