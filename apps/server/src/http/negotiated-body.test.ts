import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { negotiatedBody } from './negotiated-body.ts';

const json = (n: number) => Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i, n, text: `entry ${i}` })) }));

describe('a ready body kept with its coded forms', () => {
  it('makes each coded form once, decoding to exactly the body, with its own tag and headers', async () => {
    const body = negotiatedBody('test:forms', json(1), '"tag"', ['cache-control', 'no-cache']);
    const br = await body.coded('br');
    const gzip = await body.coded('gzip');
    expect(brotliDecompressSync(br.body).equals(body.identity.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(body.identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(body.identity.body.length / 3);
    expect([body.identity.etag, br.etag, gzip.etag]).toEqual(['"tag"', '"tag-br"', '"tag-gzip"']);
    expect(br.headers).toEqual(['cache-control', 'no-cache', 'vary', 'accept-encoding', 'content-encoding', 'br', 'etag', '"tag-br"']);
    expect(br.unchangedHeaders).toEqual(['cache-control', 'no-cache', 'vary', 'accept-encoding', 'etag', '"tag-br"']);
    expect(body.identity.headers).toEqual(['cache-control', 'no-cache', 'vary', 'accept-encoding', 'etag', '"tag"']);
    // Ready now: the same bytes, without waiting.
    expect(body.coded('br')).toBe(br);
    expect(body.select('gzip, deflate, br, zstd')).toBe(br);
    expect(body.select(undefined)).toBe(body.identity);
  });

  it('is the same object, coded forms included, while the content stays the same, and a new one when it changes', async () => {
    const first = negotiatedBody('test:memo', json(1));
    const br = await first.coded('br');
    const rebuilt = negotiatedBody('test:memo', json(1));
    expect(rebuilt).toBe(first);
    expect(rebuilt.coded('br')).toBe(br);
    const changed = negotiatedBody('test:memo', json(2));
    expect(changed).not.toBe(first);
    expect(brotliDecompressSync((await changed.coded('br')).body).equals(json(2))).toBe(true);
    // Another tag or other headers are another body too.
    expect(negotiatedBody('test:memo', json(2), '"t"')).not.toBe(changed);
    const tagged = negotiatedBody('test:memo', json(2), '"t"');
    expect(negotiatedBody('test:memo', json(2), '"t"', ['cache-control', 'no-cache'])).not.toBe(tagged);
  });

  it('gives concurrent first callers the one form being made', async () => {
    const body = negotiatedBody('test:concurrent', json(3));
    const [a, b] = await Promise.all([body.coded('br'), body.coded('br')]);
    expect(a).toBe(b);
  });
});
