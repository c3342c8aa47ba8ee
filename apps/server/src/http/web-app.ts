import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { ClientData } from '@rewards/contract';
import { clientData, findClientIdByHostname } from '../modules/clients/service.ts';
import type { SessionPolicy } from '../modules/sessions/service.ts';
import { errors } from './api-error.ts';
import type { ModuleDeps } from './module-deps.ts';
import { sendCompressedOnce } from './compressed-once/index.ts';
import { PAGE_HEADERS, securityHeaders } from './security-headers.ts';

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
export async function registerWebApp(app: FastifyInstance, { db, sessionPolicy, config }: ModuleDeps, distDir: string): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn(`No web app at ${distDir}: run npm run build. Serving the API only.`);
    return;
  }
  const template = readFileSync(indexPath, 'utf8');

  // In a scope of its own, so the console host's refusal below applies to these routes only.
  await app.register(async (scope) => registerPages(scope, db, distDir, template, sessionPolicy, config.console.hostname));
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

  securityHeaders(app, PAGE_HEADERS);
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

  // index.html with a client's data inlined, once per client data object (the read cache keeps it).
  const pages = new WeakMap<ClientData, string>();
  const pageOf = (data: ClientData) => {
    let page = pages.get(data);
    if (page === undefined) {
      page = template.replace(
        PLACEHOLDER,
        `<script id="client-data" type="application/json">${scriptSafeJson(JSON.stringify(data))}</script>`,
      );
      pages.set(data, page);
    }
    return page;
  };

  app.get('/*', async (request, reply) => {
    // The console's paths are not the participant app's, on any host (decision 050).
    if (request.url === '/console' || request.url.startsWith('/console/')) {
      return reply.callNotFound();
    }
    const clientId = await findClientIdByHostname(db, request.hostname.toLowerCase());
    // An unknown site gets the bare page, which then shows its error. Compressed once per page
    // text: the page went out as 45 kB of uncompressed HTML on every first visit (issue 6).
    const page = clientId ? pageOf(await clientData(db, clientId, sessionPolicy)) : template;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return sendCompressedOnce(request, reply, page, { brotliQuality: 5 });
  });
}
