import { describe, expect, it } from 'vitest';
import { decodePageCursor, encodePageCursor } from './page-cursor.ts';

describe('a page cursor', () => {
  it('gives back the values it was made of', () => {
    const cursor = encodePageCursor(['2026-11-26T00:00:00.000Z', 'a1', 3]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageCursor(cursor, ['string', 'string', 'number'])).toEqual(['2026-11-26T00:00:00.000Z', 'a1', 3]);
  });

  it.each([
    ['not base64url', '!!!'],
    ['empty', ''],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['another shape', encodePageCursor(['a', 'b'])],
    ['a number for a string', encodePageCursor(['a', 1, 2])],
    ['a negative number', encodePageCursor(['a', 'b', -1])],
    ['a control character', encodePageCursor(['a\u0000', 'b', 1])],
    ['a lone surrogate', encodePageCursor(['\ud800', 'b', 1])],
    ['a string too long', encodePageCursor(['x'.repeat(65), 'b', 1])],
    ['too long a cursor', 'A'.repeat(2_001)],
  ])('refuses %s with a 400', (_, text) => {
    expect(() => decodePageCursor(text, ['string', 'string', 'number'])).toThrow(expect.objectContaining({ statusCode: 400 }));
  });
});
