import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES, PROGRAM_API_BASE, programApiPaths as paths, type ApiScope } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { registeredRoutes } from '../../http/api-document.ts';
import { makeKey, participantBody, programCall, revokeKey, tag } from './test-support.ts';
import { programWebhooksPaths as webhookPaths } from '@rewards/contract/console-webhooks';
import { programRulesPaths as rulesPaths } from '@rewards/contract/earning-rules';
import { programEventsPaths as eventPaths } from '@rewards/contract/events';

/** The event the POST events row keeps (again: a repeat is 201 too) and the GET row reads. */
const TABLE_EVENT_ID = `table-${tag()}`;
const tableEvent = (username: string) => ({
  id: TABLE_EVENT_ID,
  type: 'purchase',
  username,
  occurredAt: '2026-06-01T10:00:00Z',
  amount: '10.00',
});

/**
 * Issue 29 §2: every program API route has a row here with its scope; the test FAILS when a route
 * under /api/program/v1 has no row (add one with the new route) or a row names no route. Each row
 * is called by every kind of caller and the whole grid compared: no key, a revoked key (401), a
 * key of the client with every scope but the row's (403), a key of another client with every
 * scope (404 where the route names a participant or a posting of this client), and the right key.
 */
const COLUMNS = ['noKey', 'revokedKey', 'withoutScope', 'otherClient', 'rightKey'] as const;
type Column = (typeof COLUMNS)[number];

/** What the calls act on: a participant of acme with points, and a posting of theirs to reverse. */
interface Context {
  username: string;
  externalId: string;
  /** Another participant of acme, for the PUT: the other client's key makes its own of that username. */
  putUsername: string;
  /** Webhook endpoints of acme (decision 084): one to read, change and rotate, one to delete. */
  webhookId: string;
  webhookDeleteId: string;
  /** A participants import of acme, previewed and waiting to be confirmed. */
  importId: string;
}
interface Call {
  method: HTTPMethods;
  path: string;
  body?: unknown;
  /** A CSV upload: its text, sent as text/csv. */
  csv?: string;
}
/** `scope`: the route's; a list where the route needs one of them by what it acts on (an import's kind; the calls here are of participants). */
type Row = { route: string; scope: ApiScope | readonly ApiScope[]; call: (c: Context) => Call } & Record<Column, number>;
const scopesOf = (row: Row): readonly ApiScope[] => (typeof row.scope === 'string' ? [row.scope] : row.scope);
const PARTICIPANTS_CSV = (username: string) =>
  `username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status\n${username},Ima,Port,${username}@example.com,,IMP-${tag()},true,false,false,,\n`;

const route = (method: string, path: string) => `${method} ${PROGRAM_API_BASE}${path}`;
/** Refused before the route's work: the key is checked before anything else. */
const refused = { noKey: 401, revokedKey: 401, withoutScope: 403 };

const expected: Row[] = [
  {
    route: route('GET', '/participants'),
    scope: 'participants:read',
    call: () => ({ method: 'GET', path: paths.participants }),
    ...refused,
    // Its own participants: a list, none of acme's in it (program-api.test.ts).
    otherClient: 200,
    rightKey: 200,
  },
  {
    route: route('GET', '/participants/:username'),
    scope: 'participants:read',
    call: (c) => ({ method: 'GET', path: paths.participant(c.username) }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('PUT', '/participants/:username'),
    scope: 'participants:write',
    call: (c) => ({ method: 'PUT', path: paths.participant(c.putUsername), body: participantBody({ firstName: 'Table' }) }),
    ...refused,
    // Its own new participant of that username: acme's is not reached (program-api.test.ts).
    otherClient: 201,
    rightKey: 200,
  },
  {
    route: route('POST', '/participants/:username/status'),
    scope: 'participants:write',
    call: (c) => ({ method: 'POST', path: paths.status(c.username), body: { status: 'active', reason: 'Route table' } }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('GET', '/participants/:username/statement'),
    scope: 'points:read',
    call: (c) => ({ method: 'GET', path: paths.statement(c.username) }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('POST', '/points'),
    scope: 'points:write',
    call: (c) => ({
      method: 'POST',
      path: paths.points,
      body: { username: c.username, points: 3, description: 'Route table', externalId: `table-${tag()}` },
    }),
    ...refused,
    otherClient: 404,
    rightKey: 201,
  },
  {
    route: route('POST', '/points/:externalId/reversal'),
    scope: 'points:write',
    call: (c) => ({ method: 'POST', path: paths.reversal(c.externalId), body: { points: 1, reason: 'Route table' } }),
    ...refused,
    otherClient: 404,
    rightKey: 201,
  },
  // Bulk (decisions 063, 064): the console's imports and code batches; an import needs the write scope of its kind.
  {
    route: route('POST', '/imports'),
    scope: ['points:write', 'participants:write', 'events:write'],
    call: () => ({ method: 'POST', path: `${paths.imports}?kind=participants`, csv: PARTICIPANTS_CSV(`imp.${tag()}`) }),
    ...refused,
    // Its own import.
    otherClient: 201,
    rightKey: 201,
  },
  {
    route: route('GET', '/imports/:importId'),
    scope: ['points:write', 'participants:write', 'events:write'],
    call: (c) => ({ method: 'GET', path: paths.importJob(c.importId) }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('POST', '/imports/:importId/confirm'),
    scope: ['points:write', 'participants:write', 'events:write'],
    call: (c) => ({ method: 'POST', path: paths.confirmImport(c.importId), body: { reason: 'Route table' } }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('POST', '/code-batches'),
    scope: 'codes:write',
    call: () => ({ method: 'POST', path: paths.codeBatches, body: { name: `table-${tag()}`, count: 2, value: 5, reason: 'Route table' } }),
    ...refused,
    // Its own batch.
    otherClient: 201,
    rightKey: 201,
  },
  // Webhooks (part B, decision 084): the key's client's endpoints; another client's key lists its own, and 404 on acme's.
  {
    route: route('GET', '/webhooks'),
    scope: 'webhooks:manage',
    call: () => ({ method: 'GET', path: webhookPaths.endpoints }),
    ...refused,
    otherClient: 200,
    rightKey: 200,
  },
  {
    route: route('POST', '/webhooks'),
    scope: 'webhooks:manage',
    call: () => ({
      method: 'POST',
      path: webhookPaths.endpoints,
      body: { url: 'http://127.0.0.1:9/route-table', events: ['points.credited'] },
    }),
    ...refused,
    // Its own new endpoint.
    otherClient: 201,
    rightKey: 201,
  },
  {
    route: route('GET', '/webhooks/:endpointId'),
    scope: 'webhooks:manage',
    call: (c) => ({ method: 'GET', path: webhookPaths.endpoint(c.webhookId) }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('PATCH', '/webhooks/:endpointId'),
    scope: 'webhooks:manage',
    call: (c) => ({ method: 'PATCH', path: webhookPaths.endpoint(c.webhookId), body: { description: `Route table ${tag()}` } }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('POST', '/webhooks/:endpointId/rotate-secret'),
    scope: 'webhooks:manage',
    call: (c) => ({ method: 'POST', path: webhookPaths.rotateSecret(c.webhookId), body: { overlapHours: 1 } }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  {
    route: route('DELETE', '/webhooks/:endpointId'),
    scope: 'webhooks:manage',
    call: (c) => ({ method: 'DELETE', path: webhookPaths.endpoint(c.webhookDeleteId) }),
    ...refused,
    otherClient: 404,
    rightKey: 204,
  },
  // Earning rules (issue 32 §2, decision 095): a simulation writes nothing; acme's participant is nobody to another client.
  {
    route: route('POST', '/rules/simulate'),
    scope: 'events:write',
    call: (c) => ({ method: 'POST', path: rulesPaths.simulate, body: { type: 'purchase', username: c.username, amount: '10.00' } }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
  // Events in (issue 32 §1, decision 097): the POST row keeps the event the GET row after it reads.
  {
    route: route('POST', '/events'),
    scope: 'events:write',
    call: (c) => ({ method: 'POST', path: eventPaths.events, body: tableEvent(c.username) }),
    ...refused,
    otherClient: 404,
    rightKey: 201,
  },
  {
    route: route('POST', '/events::batch'),
    scope: 'events:write',
    call: (c) => ({ method: 'POST', path: eventPaths.batch, body: { events: [{ ...tableEvent(c.username), id: `table-${tag()}` }] } }),
    ...refused,
    // Each event's own outcome inside (acme's participant is nobody to another client: 404 there).
    otherClient: 200,
    rightKey: 200,
  },
  {
    route: route('GET', '/events/:id'),
    scope: 'events:write',
    call: () => ({ method: 'GET', path: eventPaths.event(TABLE_EVENT_ID) }),
    ...refused,
    otherClient: 404,
    rightKey: 200,
  },
];

/** The grid as a table: shown whole when it differs. */
function grid(rows: ReadonlyArray<{ route: string } & Record<Column, number>>): string {
  return rows.map((row) => `${row.route.padEnd(60)} ${COLUMNS.map((c) => `${c}=${row[c]}`).join(' ')}`).join('\n');
}

describe.each(dialects)('the program API route table on %s', (dialect) => {
  let t: TestApp;
  /** withoutScope: by the row's scopes (joined), a key of acme with every scope but those. */
  const keys = {} as Record<Exclude<Column, 'withoutScope'>, string> & { withoutScope: Map<string, string> };
  let context: Context;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const db = t.database.db;
    keys.rightKey = (await makeKey(db, DEMO_CLIENT_ID)).key;
    keys.otherClient = (await makeKey(db, OTHER_CLIENT_ID)).key;
    keys.noKey = '';
    const revoked = await makeKey(db, DEMO_CLIENT_ID);
    await revokeKey(db, DEMO_CLIENT_ID, revoked.id);
    keys.revokedKey = revoked.key;
    keys.withoutScope = new Map();
    for (const scopes of new Set(expected.map((row) => scopesOf(row).join(',')))) {
      const lacking = scopes.split(',');
      keys.withoutScope.set(
        scopes,
        (
          await makeKey(
            db,
            DEMO_CLIENT_ID,
            API_SCOPES.filter((s) => !lacking.includes(s)),
          )
        ).key,
      );
    }
    const username = `table.${tag()}`;
    const putUsername = `table.${tag()}`;
    const externalId = `table-${tag()}`;
    const as = keys.rightKey;
    for (const name of [username, putUsername])
      expect((await programCall(t.app, 'PUT', paths.participant(name), { key: as, body: participantBody() })).statusCode).toBe(201);
    const posted = await programCall(t.app, 'POST', paths.points, {
      key: as,
      body: { username, points: 50, description: 'Route table', externalId },
    });
    expect(posted.statusCode).toBe(201);
    const webhook = async () => {
      const made = await programCall(t.app, 'POST', webhookPaths.endpoints, {
        key: as,
        body: { url: 'http://127.0.0.1:9/route-table', events: ['*'] },
      });
      expect(made.statusCode).toBe(201);
      return made.json<{ endpoint: { id: string } }>().endpoint.id;
    };
    const upload = await programCall(t.app, 'POST', `${paths.imports}?kind=participants`, {
      key: as,
      rawBody: PARTICIPANTS_CSV(`imp.${tag()}`),
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const importId = upload.json<{ id: string }>().id;
    // The preview runs in the background: polled until it is ready, within a deadline.
    for (const deadline = Date.now() + 60_000; ;) {
      const job = (await programCall(t.app, 'GET', paths.importJob(importId), { key: as })).json<{ status: string }>();
      if (job.status === 'staged') break;
      if (Date.now() > deadline) throw new Error(`the import's preview did not end: ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    context = { username, externalId, putUsername, webhookId: await webhook(), webhookDeleteId: await webhook(), importId };
  });
  afterAll(() => t.close());

  it('lists every route of the program API with its scope, and no route that is not there', () => {
    const registered = registeredRoutes(t.app)
      .filter((r) => r.url.startsWith(`${PROGRAM_API_BASE}/`))
      .flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD').map((m) => ({ route: `${m} ${r.url}`, options: r })),
      );
    expect(registered.map((r) => r.route).sort()).toEqual(expected.map((row) => row.route).sort());
    for (const { route: name, options } of registered) {
      const row = expected.find((r) => r.route === name);
      expect((options.config as { scopes?: string[] } | undefined)?.scopes, `${name}: its scope (withScope)`).toEqual(
        row ? scopesOf(row) : undefined,
      );
    }
  });

  it('refuses and answers each kind of caller as the table says', async () => {
    const observed: Array<{ route: string } & Record<Column, number>> = [];
    for (const [index, row] of expected.entries()) {
      const cells = {} as Record<Column, number>;
      // An address per row: the bad keys of the whole grid would pass the per-address throttle of bad keys (20).
      const remoteAddress = `10.29.${index}.1`;
      // The right key last: it is the one that changes something.
      for (const column of COLUMNS) {
        const key = column === 'withoutScope' ? keys.withoutScope.get(scopesOf(row).join(',')) : keys[column];
        const call = row.call(context);
        const reply = await programCall(t.app, call.method, call.path, {
          remoteAddress,
          ...(key ? { key } : {}),
          ...(call.body === undefined ? {} : { body: call.body }),
          ...(call.csv === undefined ? {} : { rawBody: call.csv, headers: { 'content-type': 'text/csv' } }),
        });
        cells[column] = reply.statusCode;
        if (reply.statusCode >= 400)
          expect(Object.keys(reply.json()).sort(), `${row.route} ${column}`).toEqual(['errorCode', 'message', 'responseMessage']);
      }
      observed.push({ route: row.route, ...cells });
    }
    expect(grid(observed)).toBe(grid(expected));
  });
});
