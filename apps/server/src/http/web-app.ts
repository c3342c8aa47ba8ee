import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { clientDataJson } from '../modules/clients/service.ts';
import { findClientIdByHostname } from '../modules/clients/store.ts';
import type { SessionPolicy } from '../modules/sessions/service.ts';
import { preferredCoding } from './accept-encoding.ts';

const PLACEHOLDER = '<!--client-data-->';

/** JSON placed inside <script type="application/json">: "<" is escaped so no tag can close it early. */
function scriptSafeJson(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Serves the built single-page app. Hashed assets are cached for a year; every other path gets
 * index.html with the client's data inlined as a JSON data block (not script, so the CSP holds),
 * which saves the login page its first API round trip.
 */
export async function registerWebApp(app: FastifyInstance, db: Db, distDir: string, sessionPolicy: SessionPolicy): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn(`No web app at ${distDir}: run npm run build. Serving the API only.`);
    return;
  }
  const template = readFileSync(indexPath, 'utf8');

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    // The build writes .br and .gz beside each asset; the one the browser accepts is sent.
    preCompressed: true,
    setHeaders: (res, path) => {
      const hashed = path.includes(`${join(distDir, 'assets')}`);
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const pages = new RenderedPages(template);

  app.get('/*', async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.callNotFound();
    }
    const clientId = await findClientIdByHostname(db, request.hostname.toLowerCase());
    const page = pages.get(clientId, clientId ? await clientDataJson(db, clientId, sessionPolicy) : '');
    // q-values count: `br;q=0` is a refusal, not a request (decision 032).
    const encoding = preferredCoding(request.headers['accept-encoding']);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-encoding');
    if (!encoding) return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(encoding === 'br' ? page.br() : page.gzip());
  });
}

interface RenderedPage {
  clientData: string;
  html: string;
  br(): Buffer;
  gzip(): Buffer;
}

/**
 * index.html with a client's data inlined, kept with its compressed forms (issue 6: the page
 * went out as 45 kB of uncompressed HTML on every first visit, 13 kB of it avoidable on the
 * critical path). Rebuilt only when the client's data changes (its read cache hands back the
 * same text until an operator's edit shows), so compression costs once per change, not per view.
 */
class RenderedPages {
  readonly #template: string;
  readonly #byClient = new Map<string, RenderedPage>();

  constructor(template: string) {
    this.#template = template;
  }

  get(clientId: string | undefined, clientData: string): RenderedPage {
    const key = clientId ?? '';
    const known = this.#byClient.get(key);
    if (known && known.clientData === clientData) return known;
    const html = clientId
      ? this.#template.replace(PLACEHOLDER, `<script id="client-data" type="application/json">${scriptSafeJson(clientData)}</script>`)
      : this.#template;
    let br: Buffer | undefined;
    let gz: Buffer | undefined;
    const page: RenderedPage = {
      clientData,
      html,
      // Quality 5: a few milliseconds per page, within a few percent of the best brotli.
      br: () => (br ??= brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })),
      gzip: () => (gz ??= gzipSync(html)),
    };
    // Clients come from the database (unknown hostnames share the '' page), so the map stays small.
    this.#byClient.set(key, page);
    return page;
  }
}
