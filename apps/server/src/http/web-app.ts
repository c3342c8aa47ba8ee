import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { clientDataJson } from '../modules/clients/service.ts';
import { findClientIdByHostname } from '../modules/clients/store.ts';
import type { SessionPolicy } from '../modules/sessions/service.ts';
import { errors } from './api-error.ts';
import { NegotiatedBody } from './negotiated-body.ts';

const PLACEHOLDER = '<!--client-data-->';

/** JSON placed inside <script type="application/json">: "<" is escaped so no tag can close it early. */
function scriptSafeJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Serves the built single-page app. Hashed assets are cached for a year; every other path gets
 * index.html with the client's data inlined as a JSON data block (not script, so the CSP holds),
 * which saves the login page its first API round trip.
 */
export async function registerWebApp(
  app: FastifyInstance,
  db: Db,
  distDir: string,
  sessionPolicy: SessionPolicy,
  consoleHostname?: string,
): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn(`No web app at ${distDir}: run npm run build. Serving the API only.`);
    return;
  }
  const template = readFileSync(indexPath, 'utf8');

  // In a scope of its own, so the console host's refusal below applies to these routes only.
  await app.register(async (scope) => registerPages(scope, db, distDir, template, sessionPolicy, consoleHostname));
}

async function registerPages(
  app: FastifyInstance,
  db: Db,
  distDir: string,
  template: string,
  sessionPolicy: SessionPolicy,
  consoleHostname?: string,
): Promise<void> {
  // The console's host serves the console only (decision 050): its root leads there, and no
  // participant page or script answers on it.
  if (consoleHostname) {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.hostname.toLowerCase() !== consoleHostname) return done();
      if (request.url === '/') return void reply.redirect('/console/');
      done(errors.notFound());
    });
  }

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
    // The console's paths are not the participant app's, on any host (decision 050).
    if (request.url.startsWith('/api/') || request.url === '/console' || request.url.startsWith('/console/')) {
      return reply.callNotFound();
    }
    const clientId = await findClientIdByHostname(db, request.hostname.toLowerCase());
    const page = pages.get(clientId, clientId ? await clientDataJson(db, clientId, sessionPolicy) : '');
    // The form the caller accepts, q-values counted (`br;q=0` is a refusal), with its `vary`,
    // `content-encoding` and `cache-control` (decision 032).
    const form = await page.body.select(request.headers['accept-encoding']);
    for (let i = 0; i < form.headers.length; i += 2) reply.header(form.headers[i]!, form.headers[i + 1]);
    return reply.type('text/html; charset=utf-8').send(form.body);
  });
}

interface RenderedPage {
  clientData: string;
  body: NegotiatedBody;
}

/** Quality 5 and level 6: a few milliseconds per page, within a few percent of the best. */
const PAGE_CODING = { brotliQuality: 5, gzipLevel: 6 };

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
    // Its brotli and gzip forms are made on the first request that accepts them, off the event loop.
    const page: RenderedPage = {
      clientData,
      body: new NegotiatedBody(Buffer.from(html), undefined, ['cache-control', 'no-store'], PAGE_CODING),
    };
    // Clients come from the database (unknown hostnames share the '' page), so the map stays small.
    this.#byClient.set(key, page);
    return page;
  }
}
