import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCUMENT_PATH, API_KEY_SECURITY_SCHEME, API_SCOPES, CLIENT_HEADER, JWKS_PATH, PROGRAM_API_BASE } from '@rewards/contract';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { API_DOCUMENT_FILE, renderApiDocument } from './api-document-file.ts';
import { isDocumentedUrl, registeredRoutes } from './api-document.ts';

/**
 * Issue 8, section 3: the OpenAPI document is made from the routes' own schemas, and this test
 * holds it to the routes: every API route is in it with its method, request and reply schemas,
 * and the whole is valid OpenAPI 3.1. A new route without schemas or a summary fails here.
 */

interface Operation {
  operationId?: string;
  'x-role'?: string;
  'x-fresh-second-factor'?: boolean;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: object }>;
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}
/** Property names of a reply that hold a secret (decision 077). */
const SECRET_PROPERTY = /^(secrets?|\w+Secret|recoveryCodes|otpauthUri|sealed|token)$/;

interface Document {
  openapi: string;
  info: { title: string; version: string };
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, object>; schemas: Record<string, object> };
}

/** Fastify's `:name` parameters are OpenAPI's `{name}`; its `::` is a literal colon (POST events:batch). */
const PATH_PARAMETER = /(?<!:):([A-Za-z0-9_]+)/g;
const openApiPath = (url: string) => url.replace(PATH_PARAMETER, '{$1}').replaceAll('::', ':');
const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
/** Replies without a body (declared with z.undefined() or z.null()): no content, redirects, not modified. */
const BODILESS = new Set(['204', '301', '302', '303', '304', '307', '308']);

describe('the API document', () => {
  let app: FastifyInstance;
  let db: Db;
  let document: Document;

  /** Every property name anywhere in an operation's 2xx reply schemas, through $refs. */
  function successPropertyNames(operation: Operation): Set<string> {
    const names = new Set<string>();
    const seen = new Set<object>();
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const ref = (node as { $ref?: string }).$ref;
      if (ref) walk(document.components.schemas[ref.replace('#/components/schemas/', '')]);
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const name of Object.keys(properties ?? {})) names.add(name);
      for (const value of Object.values(node)) walk(value);
    };
    for (const [status, reply] of Object.entries(operation.responses)) if (/^2/.test(status)) walk(reply.content);
    return names;
  }

  beforeAll(async () => {
    db = createDatabase({ dialect: 'sqlite', path: ':memory:' });
    app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: undefined }, db });
    await app.ready();
    document = (await app.inject({ method: 'GET', url: API_DOCUMENT_PATH })).json<Document>();
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  it('is served to anyone, without client-id or session, and may be cached', async () => {
    const reply = await app.inject({ method: 'GET', url: API_DOCUMENT_PATH });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['cache-control']).toBe('public, max-age=300');
    const etag = String(reply.headers.etag);
    const again = await app.inject({ method: 'GET', url: API_DOCUMENT_PATH, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.info).toMatchObject({ title: 'Rewards portal API', version: '1.0' });
  });

  it('documents every API route with its method, summary, tag, request schemas and replies', () => {
    const routes = registeredRoutes(app);
    const tagNames = new Set(document.tags.map((t) => t.name));
    const schemes = new Set(Object.keys(document.components.securitySchemes));
    const problems: string[] = [];
    let checked = 0;

    for (const route of routes) {
      if (!isDocumentedUrl(route.url)) continue;
      for (const method of methodsOf(route)) {
        const name = `${method} ${route.url}`;
        const problem = (what: string) => problems.push(`${name}: ${what}`);
        const operation = document.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        if (!operation) {
          problem('missing from the document (declare its schema; only non-API pages may be hidden)');
          continue;
        }
        checked++;
        const schema = (route.schema ?? {}) as Record<string, unknown>;
        const parameters = operation.parameters ?? [];
        const parameter = (where: string, named: string) => parameters.find((p) => p.in === where && p.name === named);

        if (!operation.summary?.trim()) problem('no summary (schema.summary)');
        if (operation.tags?.length !== 1 || !tagNames.has(operation.tags[0] ?? ''))
          problem(`needs one of the tags ${[...tagNames].join(', ')}`);
        for (const requirement of operation.security ?? [])
          for (const scheme of Object.keys(requirement)) if (!schemes.has(scheme)) problem(`unknown security scheme ${scheme}`);

        // Requests: every part the route validates, and a typed parameter for each one in its path.
        for (const param of route.url.matchAll(PATH_PARAMETER)) {
          if (!schema.params) problem(`path parameter ${param[1]} has no params schema`);
          else if (!parameter('path', param[1] ?? '')?.schema) problem(`path parameter ${param[1]} is not documented`);
        }
        if (schema.body && !operation.requestBody?.content?.['application/json']?.schema) problem('its body schema is not documented');
        if (schema.querystring && !parameters.some((p) => p.in === 'query')) problem('its query schema is not documented');
        if (route.url.startsWith(CONSOLE_API_BASE)) {
          // The console's API names no client; each operation says who may call it (issue 17).
          if (parameter('header', CLIENT_HEADER)) problem(`the console takes no ${CLIENT_HEADER} header`);
          if (!operation['x-role']) problem('a console operation needs x-role: who may call it');
          // A signed-in reply that carries a secret needs a second factor passed just now (decision 077); the
          // enrolment link's and the sign-in's replies are the first factor's own.
          const signedIn = (operation.security ?? []).some((r) => 'consoleSession' in r);
          const secrets = [...successPropertyNames(operation)].filter((property) => SECRET_PROPERTY.test(property));
          if (signedIn && secrets.length > 0 && operation['x-fresh-second-factor'] !== true)
            problem(`its reply carries ${secrets.join(', ')}: declare documented(…, { freshSecondFactor: true })`);
        } else if (route.url.startsWith(`${PROGRAM_API_BASE}/`)) {
          // The program API (decision 085): the key names the client; each operation names its scope (or the scopes, one of
          // which it needs by what it acts on: an import's kind).
          if (parameter('header', CLIENT_HEADER)) problem(`the program API takes no ${CLIENT_HEADER} header`);
          const requirements = operation.security ?? [];
          const scoped = (r: Record<string, string[]>) =>
            Object.keys(r).length === 1 &&
            r[API_KEY_SECURITY_SCHEME]?.length === 1 &&
            (API_SCOPES as readonly string[]).includes(r[API_KEY_SECURITY_SCHEME][0] ?? '');
          if (requirements.length === 0 || !requirements.every(scoped))
            problem(`needs security [{ ${API_KEY_SECURITY_SCHEME}: [<its scope>] }]`);
          if (!operation.responses['401']) problem('needs a key but documents no 401');
        } else if (route.url.startsWith('/api/') && route.url !== API_DOCUMENT_PATH) {
          if (!parameter('header', CLIENT_HEADER)?.required) problem(`the ${CLIENT_HEADER} header is not a required parameter`);
        }

        // Replies: a success schema declared on the route, each of its statuses documented, errors in the one shape.
        const declared = Object.keys((schema.response ?? {}) as object);
        if (!declared.some((status) => /^[23]/.test(status))) problem('declares no success reply schema (schema.response)');
        for (const status of declared) {
          const documented = operation.responses[status.toUpperCase()];
          if (!documented?.description) problem(`reply ${status} is not documented`);
          else if (!BODILESS.has(status) && !documented.content?.['application/json']?.schema) problem(`reply ${status} has no schema`);
        }
        const error = operation.responses.default?.content?.['application/json']?.schema;
        if (error?.$ref !== '#/components/schemas/ApiError') problem('its error replies are not documented');
        const needsSession = (operation.security ?? []).some((r) => 'session' in r);
        if (needsSession && !operation.responses['401']) problem('needs a session but documents no 401');
      }
    }

    const operationIds = Object.values(document.paths).flatMap((byMethod) =>
      Object.values(byMethod).map((operation) => operation.operationId),
    );
    for (const id of operationIds)
      if (!id || operationIds.indexOf(id) !== operationIds.lastIndexOf(id)) problems.push(`operationId ${id} is missing or not unique`);

    expect(problems).toEqual([]);
    // Sanity: the enumeration saw the APIs (not an empty list that passes vacuously).
    expect(checked).toBeGreaterThanOrEqual(21);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([JWKS_PATH, '/api/partner/v1/debits', '/api/v1.0/user', '/api/console/v1/me']),
    );
  });

  it('shows no page that is not API: web app, health and readiness checks, logo, demo catalog', () => {
    const hidden = registeredRoutes(app)
      .filter((route) => !isDocumentedUrl(route.url))
      .map((route) => route.url);
    expect(hidden).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/brand/:clientId/logo.svg', '/demo-catalog/:type']));
    for (const url of hidden) expect(document.paths[openApiPath(url)], url).toBeUndefined();
  });

  it('has a committed copy for integrators that is up to date (npm run openapi rewrites it)', async () => {
    const committed = readFileSync(API_DOCUMENT_FILE, 'utf8');
    expect(committed === (await renderApiDocument()), 'docs/api/openapi.json is stale: run `npm run openapi` and commit it').toBe(true);
  });
});
