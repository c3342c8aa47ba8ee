import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { clientDataJson } from '../modules/clients/service.ts';
import { findClientIdByHostname } from '../modules/clients/store.ts';
import type { SessionPolicy } from '../modules/sessions/service.ts';

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

  async function renderIndex(request: FastifyRequest): Promise<string> {
    const clientId = await findClientIdByHostname(db, request.hostname.toLowerCase());
    if (!clientId) return template;
    const clientData = await clientDataJson(db, clientId, sessionPolicy);
    return template.replace(
      PLACEHOLDER,
      `<script id="client-data" type="application/json">${scriptSafeJson(clientData)}</script>`,
    );
  }

  app.get('/*', async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.callNotFound();
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(await renderIndex(request));
  });
}
