import { LRUCache } from 'lru-cache';

/** The content codings the portal keeps ready bodies in, in the server's order of preference. */
export type ContentCoding = 'br' | 'gzip';

/**
 * Which coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the highest q-value
 * among br, gzip and identity; on a tie brotli, then gzip, then identity (the smallest bytes
 * first). `undefined` means identity: no header, an empty one, `identity`, codings refused with
 * `q=0`, or nothing we have. Identity is acceptable unless `identity;q=0` (or `*;q=0` with no
 * identity entry) refuses it; even then it is what is sent when nothing else is acceptable,
 * rather than a 406 (the spec allows either; a browser never refuses identity).
 *
 * @fastify/accept-negotiator (installed with @fastify/static) was not used: it lets `*` stand
 * for a coding the same header refuses (`br;q=0, *` gives br) and compares tokens case-sensitively.
 */
export function preferredCoding(header: string | undefined): ContentCoding | undefined {
  if (!header) return undefined;
  const coding = known.memo(header);
  return coding === 'identity' ? undefined : coding;
}

// The header is the caller's to choose: a bounded memo. Browsers send a few.
const known = new LRUCache<string, ContentCoding | 'identity'>({ max: 100, memoMethod: (header) => negotiate(header) ?? 'identity' });

/** qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function negotiate(header: string): ContentCoding | undefined {
  const q = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...parameters] = element.split(';');
    const token = name.trim().toLowerCase();
    if (!token) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=');
      // A malformed weight counts as a refusal: never send what the caller may have refused.
      if (key.trim().toLowerCase() === 'q') weight = QVALUE.test(value.trim()) ? Number(value.trim()) : 0;
    }
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3). A repeated entry: the first one counts.
    const coding = token === 'x-gzip' ? 'gzip' : token;
    if (!q.has(coding)) q.set(coding, weight);
  }
  const any = q.get('*');
  const weightOf = (coding: string) => q.get(coding) ?? any ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  // Identity not named: acceptable, but it only wins when nothing else is.
  const identity = q.get('identity') ?? (any === 0 ? 0 : -1);
  const best = Math.max(br, gzip, identity);
  if (best <= 0) return undefined;
  if (br === best) return 'br';
  if (gzip === best) return 'gzip';
  return undefined;
}

/**
 * Whether an If-None-Match header names this entity tag: `*`, or one of a comma-separated list,
 * compared weakly as RFC 9110 §13.1.2 asks (a `W/` prefix is ignored).
 */
export function etagMatches(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  if (header === etag) return true;
  for (const element of header.split(',')) {
    const tag = element.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
