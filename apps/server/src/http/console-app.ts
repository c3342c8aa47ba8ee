import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from './api-error.ts';
import { PAGE_HEADERS, securityHeaders } from './security-headers.ts';

/** Where the console lives on its origin (decision 050); its build uses the same base. */
export const CONSOLE_BASE = '/console/';

/**
 * Serves the staff console's build (apps/console/dist) under /console/ on the console's host
 * only (decision 050): hashed assets with a year's cache, index.html for every other
 * /console/* path (the app routes on the client). Any other host gets 404 for all of it, as the
 * console's host gets 404 for the participant app (web-app.ts): neither origin can load the
 * other's scripts.
 */
export async function registerConsoleApp(app: FastifyInstance, distDir: string, consoleHostname: string): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn(`No console app at ${distDir}: run npm run build. The console API still answers.`);
    return;
  }
  const page = readFileSync(indexPath);

  await app.register(async (scope) => {
    scope.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      done(request.hostname.toLowerCase() === consoleHostname ? undefined : errors.notFound());
    });
    securityHeaders(scope, PAGE_HEADERS);
    await scope.register(fastifyStatic, {
      root: distDir,
      prefix: CONSOLE_BASE,
      index: false,
      wildcard: false,
      decorateReply: false,
      preCompressed: true,
      setHeaders: (res, path) => {
        const hashed = path.includes(`${join(distDir, 'assets')}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    const sendPage = (_request: FastifyRequest, reply: FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    scope.get('/console', (_request, reply) => reply.redirect(CONSOLE_BASE));
    scope.get(`${CONSOLE_BASE}*`, sendPage);
  });
}
