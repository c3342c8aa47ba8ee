import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { API_BASE, PROGRAM_API_BASE } from '@rewards/contract';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { configureReadCache } from './db/read-cache.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { acceptEmptyJsonBodies } from './http/json-body.ts';
import { serializerCompiler, validatorCompiler } from './http/schema-compilers.ts';
import { requestIdGenerator, requestLogFields, writesDebug, writesTrace } from './http/request-logging.ts';
import { refuseMetricsOnPublicPort, type Metrics } from './modules/metrics/metrics.ts';
import compress from '@fastify/compress';
import { API_HEADERS, securityHeaders } from './http/security-headers.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerReadiness, type Readiness } from './http/readiness.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { registerClientContext } from './modules/clients/client-context.ts';
import { brandRoutes, clientRoutes } from './modules/clients/routes.ts';
import { bundleRoutes } from './modules/i18n/routes.ts';
import { participantRoutes } from './modules/participants/routes.ts';
import { requireSession } from './modules/sessions/session-guard.ts';
import type { ModuleDeps } from './http/module-deps.ts';
import { activityRoutes } from './modules/activity/routes.ts';
import { expiryRoutes } from './modules/expiry/routes.ts';
import { otsRoutes } from './modules/ots/routes.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { catalogPublicRoutes } from './modules/catalog/public-routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { contentRoutes } from './modules/content/routes.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { demoCatalogRoutes } from './demo-catalog/routes.ts';
import { API_CATCH_ALL, registerApiDocument } from './http/api-document.ts';
import { ssoRoutes } from './modules/sso/routes.ts';
import { adminApiRoutes, launchAsRoutes } from './modules/launch-as/routes.ts';
import { consoleRoutes } from './modules/staff/routes.ts';
import { registerConsoleApp } from './http/console-app.ts';
import { programApiRoutes } from './modules/program-api/routes.ts';
import { programWebhookRoutes } from './modules/webhooks/program-routes.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Where log lines go; standard output unless a test wants to read them. */
  logStream?: NodeJS.WritableStream;
  /** Prometheus' metrics (METRICS_PORT, decision 079): the requests are counted into them; undefined: not counted. */
  metrics?: Metrics;
  /** Whether /readyz says to send traffic here; main.ts turns `draining` on at SIGTERM (decision 081). */
  readiness?: Readiness;
}

/**
 * Two lines per request at info cost a fifth of the CPU under load and filled the disk
 * (docs/decisions/014): requests are logged at debug, failures still at error. One line per
 * request, when it ends, with its request id, method, path and route; at trace also one as it
 * arrives, before its body (decision 079).
 */
class QuietRequestLog extends LogController {
  // The level is asked first: the line's object and the elapsed time are built only for a line
  // that is written (docs/decisions/056).
  override incomingRequest(request: FastifyRequest): void {
    if (writesTrace(request.log)) request.log.trace({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else if (writesDebug(reply.log)) reply.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * TRUST_PROXY as Fastify takes it (docs/decisions/041). A hop count is given as the function
 * proxy-addr would make of it: Fastify ignores a bare number (it cannot check the peer), so the
 * operator who chose a count is told in the README that it believes whoever connects directly.
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Replies smaller than this go out as they are: brotli costs a small reply more CPU than the rest
 * of its request (GET user, ~1.3 kB, would spend ~10 times its own time), for a few hundred bytes.
 */
const COMPRESS_THRESHOLD = 4 * 1024;

/** The one factory that start-up and tests use. The database is migrated by the caller. */
export async function buildApp({ config, db, logStream, metrics, readiness = { draining: false } }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-session-id"]', 'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-enrolment-token"]'],
      // Without the query string, where links carry their tokens (decision 079).
      serializers: { req: requestLogFields },
      ...(logStream ? { stream: logStream } : {}),
    },
    // Cheaper per request than a random UUID and a pino child each (docs/decisions/056).
    // The trusted proxy's X-Request-Id, else our own (decision 079).
    genReqId: requestIdGenerator(config.trustProxy),

    logController: new QuietRequestLog(),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    // SIGTERM: stop taking requests, let those under way finish, then close (decision 081):
    // idle keep-alive connections are closed at once, busy ones after their reply.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  // The contract's zod schemas, checked by Ajv and written by fast-json-stringify (decision 056).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('session', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('ssoHandoff', false);

  // Responses finished while draining close their connection; a keep-alive socket would otherwise
  // hold the process open until its timeout. (Fastify answers requests that arrive meanwhile 503.)
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
    readiness.draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  configureReadCache(db, config.clientCacheSeconds);

  registerErrorHandler(app);
  // Before any route, so that every route gets the hooks (decision 079).
  metrics?.instrument(app);
  refuseMetricsOnPublicPort(app);
  // Before any route (it adds itself to each route as it is added). Dynamic replies compressed when
  // big enough to pay; client data, bundles, the statement and the page are compressed once per
  // content instead (http/compressed-once, decision 056).
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: COMPRESS_THRESHOLD, globalDecompression: false });
  await registerApiDocument(app);
  acceptEmptyJsonBodies(app);
  // The API's security headers on everything; the page scopes add a document's (decision 056).
  securityHeaders(app, API_HEADERS);
  registerClientContext(app, db, config.console.hostname);

  const deps: ModuleDeps = { config, db, sessionPolicy: config.session, requireSession: requireSession(db, config.session) };
  app.get('/healthz', async (_request, reply) => {
    await sql`select 1`.execute(db);
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });
  registerReadiness(app, db, readiness);
  brandRoutes(app, deps);

  // Outside /api/v1.0: the published keys, the catalogs' partner API, the demo catalog (never in production, decision 072).
  catalogPublicRoutes(app, deps);
  if (config.catalog.demo) demoCatalogRoutes(app, config.catalog.demo);
  adminApiRoutes(app, deps);
  // The staff console's API, on its own origin (docs/decisions/046).
  await consoleRoutes(app, deps);

  await app.register(
    async (api) => {
      // Spec section 7: no caching of API replies.
      api.addHook('onSend', (_request, reply, payload, done) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        done(null, payload);
      });
      for (const routes of [
        clientRoutes,
        bundleRoutes,
        authRoutes,
        participantRoutes,
        activityRoutes,
        expiryRoutes,
        otsRoutes,
        catalogRoutes,
        profileRoutes,
        contentRoutes,
        accountRoutes,
        ssoRoutes,
        launchAsRoutes,
      ])
        routes(api, deps);
    },
    { prefix: API_BASE },
  );
  // The program API: a client's own systems with a bearer key of the client (issue 29, decisions
  // 083 and 085); the client is the key's, never a header's. Its replies are never cached.
  await app.register(
    async (program) => {
      program.addHook('onSend', (_request, reply, payload, done) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        done(null, payload);
      });
      for (const routes of [programApiRoutes, programWebhookRoutes]) routes(program, deps);
    },
    { prefix: PROGRAM_API_BASE },
  );
  // Unknown API paths are the API's 404 (with its headers), never the web app's page.
  app.all(API_CATCH_ALL, (_request, reply) => reply.callNotFound());

  if (config.webDist) await registerWebApp(app, deps, config.webDist);
  // The staff console's web app, on its own host only (decision 050).
  if (config.consoleDist) await registerConsoleApp(app, config.consoleDist, config.console.hostname);
  return app;
}
