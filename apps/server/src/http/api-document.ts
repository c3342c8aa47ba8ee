import { createHash } from 'node:crypto';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_BASE,
  API_DOCUMENT_PATH,
  API_KEY_SECURITY_SCHEME,
  ApiError,
  CLIENT_HEADER,
  JWKS_PATH,
  PARTNER_API_BASE,
  PROGRAM_API_BASE,
  SESSION_HEADER,
} from '@rewards/contract';
import { webhooksDocument } from '../modules/webhooks/api-document.ts';

/** Where the admin API lives (issue 9); its routes are documented with the bearer scheme. */
const ADMIN_API_PREFIX = '/api/admin/';
/** The staff console's API (issue 17): on the console's origin, with no client-id. */
const CONSOLE_API_PREFIX = '/api/console/';

/** The capabilities, in the order an integrator meets them; every documented operation has one. */
export const API_TAGS = [
  { name: 'Program', description: "What a site shows before sign-in: the program's configuration and translations." },
  { name: 'Sign-in', description: 'Signing in with a username and password, and signing out.' },
  { name: 'Single sign-on', description: "Signing in through the client's OpenID Connect provider." },
  { name: 'Launch as', description: "A support administrator's single-use token becomes a session as a participant." },
  { name: 'Account', description: 'Activation, forgotten username or password, setting a new password from a mailed link.' },
  { name: 'Participant', description: "The signed-in participant's data, language, programs and privacy notice." },
  { name: 'Activity', description: 'The account statement: points earned and spent, with the balance.' },
  { name: 'On-the-spot codes', description: 'Redeeming a printed code for points.' },
  { name: 'Catalogs', description: "Signed punch-out links to the client's reward catalogs." },
  { name: 'Profile', description: 'Changing the password.' },
  { name: 'Content', description: 'Program rules, FAQs, privacy texts, and the contact form.' },
  {
    name: 'Partner API',
    description:
      "For catalogs: redeeming a punch-out link once on opening it, debiting a participant's points for an order (HTTP Basic, the partner's id and secret).",
  },
  { name: 'Keys', description: 'The public keys (JWKS) that verify the punch-out links the portal signs.' },
  { name: 'Admin API', description: "For a client's support tools (bearer key)." },
  {
    name: 'Program API',
    description:
      "For a client's own systems (a CRM, a shop, an HR feed), with a bearer API key of the client and the scope each operation names: participants, points posted once per externalId, statements, reversals. No client-id: the client is the key's; another client's participant is 404.",
  },
  {
    name: 'Console',
    description:
      "The staff console's API, only on CONSOLE_ORIGIN (no client-id): a cookie session after a password and a second factor; changes only from the console's own origin (Origin or Sec-Fetch-Site). x-role says who may call each.",
  },
  {
    name: 'Webhooks',
    description:
      "What the portal tells a client's systems (decision 084): signed POSTs to the client's endpoints (console Settings → Webhooks, `rewards webhooks`, or the program API's /webhooks), one per event kind below, under `webhooks`.",
  },
  { name: 'API document', description: 'This document.' },
] as const;
export type ApiTag = (typeof API_TAGS)[number]['name'];

/** A route's tag when it names none: whole APIs added later fall under their own tag. */
function defaultTag(url: string): ApiTag | undefined {
  if (url.startsWith(`${API_BASE}/sso/`)) return 'Single sign-on';
  if (url.startsWith(`${API_BASE}/launchAs`)) return 'Launch as';
  if (url.startsWith(ADMIN_API_PREFIX)) return 'Admin API';
  if (url.startsWith(`${PROGRAM_API_BASE}/`)) return 'Program API';
  if (url.startsWith(`${PARTNER_API_BASE}/`)) return 'Partner API';
  if (url.startsWith(CONSOLE_API_PREFIX)) return 'Console';
  return undefined;
}

/** The document covers the APIs; the web app, health check, logo and demo catalog are pages, not API. */
export function isDocumentedUrl(url: string): boolean {
  return (url.startsWith('/api/') && url !== API_CATCH_ALL) || url === JWKS_PATH;
}

/** app.ts's route that answers unknown API paths with the API's 404: no operation of its own. */
export const API_CATCH_ALL = '/api/*';

/**
 * Security per API: the partner and admin APIs each have one scheme, set here so a new route
 * there cannot be documented without it; participant routes name theirs (`session`, or
 * `[{ session: [] }, {}]` where a session is optional).
 */
function defaultSecurity(url: string): FastifySchema['security'] {
  if (url.startsWith(`${PARTNER_API_BASE}/`)) return [{ partnerBasic: [] }];
  if (url.startsWith(ADMIN_API_PREFIX)) return [{ adminBearer: [] }];
  return [];
}

const securitySchemes = {
  session: {
    type: 'apiKey',
    in: 'header',
    name: SESSION_HEADER,
    description: `The sessionId that POST ${API_BASE}/login (or activation, single sign-on, launch-as) returns, sent back in this header.`,
  },
  partnerBasic: { type: 'http', scheme: 'basic', description: "The catalog partner's id and secret, issued per client." },
  adminBearer: { type: 'http', scheme: 'bearer', description: 'An admin API key of the client, issued by the operator.' },
  // The program API's keys (decision 083): a route names the scope it needs, e.g. security: [{ apiKey: ['points:write'] }].
  [API_KEY_SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A client's API key (rk_live_<id>_<secret>), made in the console (Settings → API keys) or with `rewards api-keys create`, shown once. It acts for its own client only, with the scopes it was given (participants:read, participants:write, points:read, points:write, codes:write, webhooks:manage, launch-as): 401 (93001) without a valid, unrevoked key, 403 (93002) without the operation's scope, 429 (93003) with Retry-After past the key's rate and burst.",
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'rewards_console',
    description:
      'The console session cookie (HttpOnly, SameSite=Strict; __Host-rewards_console when the console is served over https), set by the second factor of the sign-in or by the enrolment.',
  },
  enrolmentToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-enrolment-token',
    description: 'The token of a single-use enrolment link (the part after its #).',
  },
} as const;

const headerDescriptions: Record<string, string> = {
  [CLIENT_HEADER]:
    "The origin of the program's site (for example https://rewards.example.com): it selects the client (program). Required on every /api call; http or https, host and optional port only (no path, query or credentials), else 400 error.unknownClient.",
  [SESSION_HEADER]: 'The session, where one is sent.',
};

/** The one error body, in the document's dialect (JSON Schema 2020-12). */
const { $schema: _dialect, ...errorSchema } = z.toJSONSchema(ApiError, { target: 'draft-2020-12' });
// One error body in components; @fastify/swagger takes the response's description from the description beside the $ref.
const errorResponse = (description: string) => ({ $ref: '#/components/schemas/ApiError', description });

const successDescriptions: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '302': 'Redirect',
  '303': 'Redirect',
  '304': 'Not modified',
};

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/**
 * Header schemas: the client-id that the client-context hook requires of every /api call (also
 * where a route does not validate it itself), descriptions for the headers every integrator
 * meets; credentials carried by a security scheme are not parameters.
 */
function describeHeaders(url: string, headers: JsonSchema, security: FastifySchema['security']): JsonSchema {
  const properties = { ...headers.properties };
  const required = [...(headers.required ?? [])];
  if (
    url.startsWith('/api/') &&
    url !== API_DOCUMENT_PATH &&
    !url.startsWith(CONSOLE_API_PREFIX) &&
    !url.startsWith(`${PROGRAM_API_BASE}/`) &&
    !properties[CLIENT_HEADER]
  ) {
    properties[CLIENT_HEADER] = { type: 'string', minLength: 1, maxLength: 2048 };
    required.push(CLIENT_HEADER);
  }
  const schemes = new Set((security ?? []).flatMap((requirement) => Object.keys(requirement)));
  if (schemes.has('partnerBasic') || schemes.has('adminBearer') || schemes.has(API_KEY_SECURITY_SCHEME)) delete properties.authorization;
  for (const [name, property] of Object.entries(properties)) {
    const description = headerDescriptions[name];
    if (description && !property.description) properties[name] = { ...property, description };
  }
  return { type: 'object', ...headers, properties, required: required.filter((name) => name in properties) };
}

/** The error replies every documented route can give, as the one error handler sends them. */
function errorResponses(schema: Record<string, unknown>, security: FastifySchema['security']): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const validates = ['headers', 'body', 'querystring', 'params'].some((part) => schema[part] !== undefined);
  if (validates) responses['400'] = errorResponse('The request is not valid (errorCode 10001), or the client-id names no program (10002).');
  const requirements = security ?? [];
  const mandatory = requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
  if (requirements.some((requirement) => 'session' in requirement)) {
    responses['401'] = errorResponse(
      `No valid session (errorCode 10401): sign in again.${mandatory ? '' : ' Only when a session is sent.'}`,
    );
  } else if (mandatory) responses['401'] = errorResponse('Missing or wrong credentials.');
  responses.default = errorResponse(
    "Any other error, with its status: 403 not allowed, 404 not found, 409 conflict, 429 too many attempts, 500. responseMessage is a translation key, message is English for logs; on the console's API, params (where present) fill the key's text.",
  );
  return responses;
}

/**
 * A stable operationId for client generators, from the method and the path without the API's
 * base: GET /api/v1.0/user/catalog-url/:type → getUserCatalogUrlByType, POST
 * /api/partner/v1/debits → postPartnerDebits.
 */
export function operationIdOf(method: string, url: string): string {
  const path = url
    .replace(API_BASE, '')
    .replace(PARTNER_API_BASE, '/partner')
    .replace(/^\/api\/admin\/v\d+/, '/admin')
    .replace(/^\/api\/console\/v\d+/, '/console')
    .replace(/^\/api\//, '/')
    .replace(JWKS_PATH, '/jwks');
  const words = path.split('/').flatMap((segment) => {
    const parameter = segment.startsWith(':');
    const parts = segment
      .replace(/^:/, '')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean);
    return parameter ? ['by', ...parts] : parts;
  });
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join('');
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/** The zod schemas become JSON Schema; then the tags, security and error replies each route does not name itself. */
const transform: SwaggerTransform = (input) => {
  const { url } = input;
  if (!isDocumentedUrl(url) || !input.schema) return { schema: { hide: true }, url };
  const transformed = zodTransform(input as Parameters<typeof zodTransform>[0]);
  const schema = transformed.schema as Record<string, unknown> & FastifySchema;
  if (schema.hide) return transformed;
  const security = schema.security ?? defaultSecurity(url);
  const tag = defaultTag(url);
  const response = { ...(schema.response as Record<string, JsonSchema> | undefined) };
  for (const [status, body] of Object.entries(response)) {
    if (!body.description && !body['x-response-description'])
      response[status] = { ...body, 'x-response-description': successDescriptions[status] ?? 'OK' };
  }
  const method = Array.isArray(input.route.method) ? String(input.route.method[0]) : input.route.method;
  return {
    url,
    schema: {
      operationId: operationIdOf(method, url),
      ...schema,
      security,
      ...(schema.tags === undefined && tag ? { tags: [tag] } : {}),
      ...(schema.headers || url.startsWith('/api/')
        ? { headers: describeHeaders(url, (schema.headers ?? {}) as JsonSchema, security) }
        : {}),
      response: { ...errorResponses(schema, security), ...response },
    },
  };
};

/** A well-formed document's top level; the rest is checked by the tests against OpenAPI 3.1's own schema. */
const ApiDocumentReply = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * The OpenAPI 3.1 document of every endpoint (issue 8), from the contract's zod schemas, served
 * at /api/openapi.json. Registered before the routes, so that it sees each one as it is added
 * (docs/decisions/023).
 */
export async function registerApiDocument(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Rewards portal API',
        version: API_BASE.replace('/api/v', ''),
        description: [
          `The participant API under ${API_BASE} (what the portal's web app calls), the catalogs' partner API under ${PARTNER_API_BASE},`,
          `the published keys at ${JWKS_PATH}, the admin API under ${ADMIN_API_PREFIX}, the program API under ${PROGRAM_API_BASE}, and the staff console's under ${CONSOLE_API_PREFIX}.`,
          `Every /api call but the console's and the program API's (whose key names it) names its program in the ${CLIENT_HEADER} header (the site's origin). Errors share one body:`,
          "errorCode (a number), responseMessage (a translation key), message (English); on the console's API also params (the particulars for the key's text) where a refusal has some.",
        ].join(' '),
      },
      servers: [
        {
          url: '{origin}',
          description: "A program's site: each client has its own origin, the same value as the client-id header.",
          variables: { origin: { default: 'http://localhost:3000', description: "The program's site origin." } },
        },
      ],
      tags: API_TAGS.map((tag) => ({ ...tag })),
      // What the portal sends, rather than answers: each webhook event kind and its body (decision 084); typed as components' are.
      webhooks: webhooksDocument() as unknown as Record<string, never>,
      // zod's JSON Schema type and openapi-types' differ only in how they type `type`.
      components: { securitySchemes: { ...securitySchemes }, schemas: { ApiError: errorSchema as unknown as Record<string, never> } },
    },
    transform,
  });

  // Every route as registered, for the tests that hold the document and the routes together.
  const routes: RouteOptions[] = [];
  documentedRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });

  // The document only changes with a deployment: built once, then served with a validator.
  let served: { body: string; etag: string } | undefined;
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      API_DOCUMENT_PATH,
      { schema: { summary: 'This OpenAPI 3.1 document', tags: ['API document'], response: { 200: ApiDocumentReply, 304: z.null() } } },
      async (request, reply) => {
        if (!served) {
          const body = JSON.stringify(app.swagger());
          served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
        }
        // Public, like the JWKS: any origin may read it, caches may keep it a while.
        reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').header('etag', served.etag);
        if (request.headers['if-none-match'] === served.etag) return reply.status(304).send(undefined as never); // no body, no content-length
        return reply.type('application/json; charset=utf-8').send(served.body as unknown as z.infer<typeof ApiDocumentReply>);
      },
    );
}

const documentedRoutes = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route the app registered after the document (all of them: it is registered first). */
export function registeredRoutes(app: FastifyInstance): readonly RouteOptions[] {
  const routes = documentedRoutes.get(app);
  if (!routes) throw new Error('registerApiDocument was not called on this app');
  return routes;
}
