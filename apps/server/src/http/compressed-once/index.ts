import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

// What @fastify/compress cannot do: keep a reply's compressed forms. See README.md beside this file.

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Coding = 'br' | 'gzip';

/** A body's text and, made on the first request that accepts each, its brotli and gzip forms. */
interface Forms {
  readonly identity: Buffer;
  /** A promise while it is being made, then the bytes. */
  br?: Buffer | Promise<Buffer>;
  gzip?: Buffer | Promise<Buffer>;
}

export interface CompressOptions {
  /** Brotli's quality: 11 (the default) for bodies that change with an operator's edit, lower for those made often. */
  brotliQuality?: number;
}

/** Bytes kept for all bodies and their forms (client data and bundles ~25 kB each, big statements ~1 MB). */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Keyed by the text itself: the read caches rebuild the same data every few seconds, and the same
 * text finds the forms already made. Out first: texts nobody asked for lately.
 */
const byText = new LRUCache<string, Forms>({
  maxSize: MAX_BYTES,
  sizeCalculation: (forms, text) => text.length + Math.ceil(forms.identity.length * 1.2),
});

/** Each data object's JSON, written once by the route's own serializer (fast-json-stringify). */
const serialized = new WeakMap<object, string>();

// As @fastify/compress negotiates (its encodings set to the same two in app.ts).
const negotiator = new Negotiator<Coding>({ supportedValues: ['br', 'gzip'], cache: new LRUCache<string, string>({ max: 100 }) });
const ALIASES = /\*|x-gzip/gu;

function codingOf(request: FastifyRequest): Coding | null {
  const header = request.headers['accept-encoding'];
  return header ? negotiator.negotiate(header.toLowerCase().replace(ALIASES, 'gzip')) : null;
}

/**
 * Sends `data` — a data object the caller keeps (a read cache's entry), or a ready text — in the
 * form the request accepts, with `vary: accept-encoding`. The JSON is written once per object and
 * compressed once per text, off the event loop; concurrent first callers share the work.
 */
export async function sendCompressedOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  data: object | string,
  options: CompressOptions = {},
): Promise<FastifyReply> {
  const text = typeof data === 'string' ? data : textOf(reply, data);
  let forms = byText.get(text);
  if (!forms) {
    forms = { identity: Buffer.from(text) };
    byText.set(text, forms);
  }
  reply.header('vary', 'accept-encoding');
  if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
  const coding = codingOf(request);
  if (!coding) return reply.send(forms.identity);
  const form = (forms[coding] ??= compressed(forms, coding, options));
  return reply.header('content-encoding', coding).send(form instanceof Buffer ? form : await form);
}

function textOf(reply: FastifyReply, data: object): string {
  const known = serialized.get(data);
  if (known !== undefined) return known;
  // The route's serializer writes JSON text (schema-compilers.ts), never bytes.
  const text = String(reply.serialize(data));
  serialized.set(data, text);
  return text;
}

function compressed(forms: Forms, coding: Coding, { brotliQuality = 11 }: CompressOptions): Promise<Buffer> {
  const made =
    coding === 'gzip'
      ? gzipped(forms.identity, { level: 9 })
      : brotli(forms.identity, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: brotliQuality,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: forms.identity.length,
          },
        });
  made.then(
    (bytes) => (forms[coding] = bytes),
    // A failure is not kept: the next request tries again.
    () => delete forms[coding],
  );
  return made;
}
