import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { preferredCoding, type ContentCoding } from './accept-encoding.ts';
import { LRUCache } from 'lru-cache';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** One form of a ready body: its bytes and the headers that go with exactly these bytes. */
export interface Representation {
  readonly body: Buffer;
  /** The route's own headers, then `vary`, `content-encoding` when coded and `etag` when tagged (name, value, …). */
  readonly headers: readonly string[];
  /** What a 304 for this form carries: the same less `content-encoding` (it describes a body, which a 304 has not). */
  readonly unchangedHeaders: readonly string[];
  readonly etag: string | undefined;
}

/**
 * A ready reply body (client data, a bundle) kept with its brotli and gzip forms
 * (docs/decisions/032). The coded forms are made on the first request that accepts them, off the
 * event loop, once per content: `negotiatedBody` hands back the same object, coded forms included,
 * while the content stays the same, however often the read cache rebuilds the bytes.
 *
 * Each form has its own strong ETag (the identity tag with `-br` or `-gzip` inside the quotes): the
 * bytes differ, and a cache that stored one form revalidates with that form's tag.
 */
export class NegotiatedBody {
  readonly identity: Representation;
  readonly #etag: string | undefined;
  readonly #own: readonly string[];
  readonly #coded = new Map<ContentCoding, Representation | Promise<Representation>>();
  readonly #options: CodingOptions;

  constructor(body: Buffer, etag: string | undefined, headers: readonly string[] = [], options: CodingOptions = {}) {
    this.#etag = etag;
    this.#own = headers;
    this.#options = options;
    this.identity = this.#representation(body, undefined);
  }

  /** The form to send for this Accept-Encoding header; a promise only while that form is first being made. */
  select(acceptEncoding: string | undefined): Representation | Promise<Representation> {
    if (this.#options.identityOnly) return this.identity;
    const coding = preferredCoding(acceptEncoding);
    return coding ? this.coded(coding) : this.identity;
  }

  coded(coding: ContentCoding): Representation | Promise<Representation> {
    const known = this.#coded.get(coding);
    if (known) return known;
    const made = compress(this.identity.body, coding, this.#options).then((body) => {
      const representation = this.#representation(body, coding);
      this.#coded.set(coding, representation);
      return representation;
    });
    // A failure is not kept: the next request tries again.
    made.catch(() => this.#coded.delete(coding));
    this.#coded.set(coding, made);
    return made;
  }

  #representation(body: Buffer, coding: ContentCoding | undefined): Representation {
    const etag = this.#etag && coding ? `${this.#etag.slice(0, -1)}-${coding}"` : this.#etag;
    const tagged = etag ? ['etag', etag] : [];
    return {
      body,
      etag,
      headers: [...this.#own, 'vary', 'accept-encoding', ...(coding ? ['content-encoding', coding] : []), ...tagged],
      unchangedHeaders: [...this.#own, 'vary', 'accept-encoding', ...tagged],
    };
  }
}

/**
 * Brotli at its best quality (11): 10% fewer bytes than quality 5 for these ~25 kB JSON bodies, at
 * 30–50 ms of a libuv thread once per body and content, against bytes saved on every reply (032).
 */
export const BROTLI_QUALITY = 11;

export interface CodingOptions {
  /** Brotli's quality, lower for bodies made often (a statement: once per ledger version, decision 044); BROTLI_QUALITY if not given. */
  brotliQuality?: number;
  /** gzip's level (9 if not given: no dearer than 6 on these bodies; only a caller without brotli gets it). */
  gzipLevel?: number;
  /** Always the identity form (still with `vary`): a body too big to compress for every request. */
  identityOnly?: boolean;
}

function compress(body: Buffer, coding: ContentCoding, options: CodingOptions): Promise<Buffer> {
  if (coding === 'gzip') return gzipped(body, { level: options.gzipLevel ?? 9 });
  const quality = options.brotliQuality ?? BROTLI_QUALITY;
  return brotli(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

const kept = new LRUCache<string, NegotiatedBody>({ max: 500 });

/**
 * The negotiated body for `key` (what the bytes are: `clientData:acme:15`), the same object as last
 * time when bytes, ETag and headers are unchanged, so its coded forms are made once per content
 * rather than every time the read cache reloads (every few seconds). Keys come from the database
 * (clients, their locales), not from requests; bounded all the same.
 */
export function negotiatedBody(key: string, body: Buffer, etag?: string, headers: readonly string[] = []): NegotiatedBody {
  const previous = kept.get(key);
  if (previous && previous.identity.body.equals(body) && sameHeaders(previous, etag, headers)) return previous;
  const made = new NegotiatedBody(body, etag, headers);
  kept.set(key, made);
  return made;
}

function sameHeaders(previous: NegotiatedBody, etag: string | undefined, headers: readonly string[]): boolean {
  const known = previous.identity.headers;
  return previous.identity.etag === etag && known[headers.length] === 'vary' && headers.every((value, i) => known[i] === value);
}
