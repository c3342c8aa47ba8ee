import cookie from '@fastify/cookie';
import Fastify, { type HTTPMethods, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API_BASE, consoleAccountPaths, consolePaths, type StaffRole } from '@rewards/contract/console';
import { consoleAuditPaths, consoleParticipantPaths } from '@rewards/contract/console-participants';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { registeredRoutes } from '../../http/api-document.ts';
import { registerErrorHandler } from '../../http/error-handler.ts';
import { consoleActionRequest, consoleActionRoutes as actions } from '../participants/console-actions-test-support.ts';
import { createStaff } from './accounts.ts';
import { consoleTextRequest, consoleTextRoutes as texts } from '../i18n/console-texts-test-support.ts';
import { consoleStaffPaths } from '@rewards/contract/console-staff';
import { consoleClientPaths } from '@rewards/contract/console-clients';
import { consoleCodesPaths } from '@rewards/contract/console-codes';
import { insertOtsCodes, newOtsCodeRows } from '../ots/store.ts';
import { consoleReportPaths } from '@rewards/contract/console-reports';
import { consoleImportPaths } from '@rewards/contract/console-imports';
import { consoleApiKeysPaths } from '@rewards/contract/console-api-keys';
import { createApiKey } from '../api-keys/service.ts';
import { consoleWebhooksPaths } from '@rewards/contract/console-webhooks';
import { createEndpoint } from '../webhooks/manage.ts';
import { tellWebhooks } from '../webhooks/service.ts';
import { consoleEarningRulesPaths } from '@rewards/contract/console-earning-rules';
import { createRule } from '../earning-rules/service.ts';
import { consoleEventTypesPaths } from '@rewards/contract/console-event-types';
import { declareEventType } from '../events/types.ts';
import { previewImportJob } from '../imports/preview.ts';
import { stageImport } from '../imports/service.ts';
import { consoleGate, requireRole } from './guard.ts';
import { hashRecoveryCode } from './secrets.ts';
import { replaceRecoveryCodes } from './store.ts';
import { TestAuthenticator } from './test-authenticator.ts';
import {
  consoleCookieOf,
  createConsoleTestApp,
  enrolStaff,
  freshCode,
  STAFF_PASSWORD,
  TEST_ACTOR,
  tokenOf,
  type ConsoleTestApp,
  type EnrolledStaff,
} from './test-support.ts';

/**
 * Issue 17, section 2: every console endpoint checks the role on the server. One row per route
 * of /api/console/v1 as the app registered it; the test FAILS when a route has no row (add one
 * with the new endpoint) or a row names no route. Columns: no session, a half session (the
 * password only), and each kind of staff in their own client (acme) and another (globex). An
 * owner has no role in either: the whole installation.
 */
const OWN = 'acme';
const OTHER = OTHER_CLIENT_ID;
const KINDS = ['owner', 'program_manager', 'support_agent', 'auditor'] as const;
type Kind = (typeof KINDS)[number];
const COLUMNS = ['anonymous', 'half', ...KINDS.flatMap((kind) => [`${kind}:own`, `${kind}:other`] as const)] as const;
type Column = (typeof COLUMNS)[number];
type Row = { route: string } & Record<Column, number>;

/** The same status for every caller: the route does not depend on who calls. */
const everyone = (status: number) => Object.fromEntries(COLUMNS.map((c) => [c, status])) as Record<Column, number>;
/** 401 without a full session, then per staff column. */
const signedIn = (own: Record<Kind, number>, other: Record<Kind, number>) =>
  ({
    anonymous: 401,
    half: 401,
    ...Object.fromEntries(
      KINDS.flatMap((kind) => [
        [`${kind}:own`, own[kind]],
        [`${kind}:other`, other[kind]],
      ]),
    ),
  }) as Record<Column, number>;
const all = (status: number): Record<Kind, number> => ({ owner: status, program_manager: status, support_agent: status, auditor: status });

/** Your account's password row: each person's password for a moment. */
const ROLE_TABLE_PASSWORD = 'Role-Table-Password-2026';

const route = (method: string, path: string) => `${method} ${CONSOLE_API_BASE}${path}`;
const expected: Row[] = [
  // Public: a wrong password is a wrong password, whoever sends it.
  { route: route('POST', consolePaths.signIn), ...everyone(401) },
  // Only a half session can pass the second factor (the half column sends a right one).
  { route: route('POST', consolePaths.signInTotp), ...everyone(401), half: 200 },
  { route: route('POST', consolePaths.signInRecoveryCode), ...everyone(401), half: 200 },
  { route: route('POST', consolePaths.signInPasskeyOptions), ...everyone(401), half: 200 },
  { route: route('POST', consolePaths.signInPasskey), ...everyone(401), half: 200 },
  // The enrolment link is the credential, not the caller: a live link opens for anyone, an unknown one for no one.
  { route: route('GET', consolePaths.enrolment), ...everyone(200) },
  { route: route('POST', consolePaths.enrolmentPassword), ...everyone(400) },
  { route: route('POST', consolePaths.enrolmentTotp), ...everyone(400) },
  { route: route('POST', consolePaths.enrolmentPasskeyOptions), ...everyone(200) },
  { route: route('POST', consolePaths.enrolmentPasskey), ...everyone(400) },
  { route: route('GET', consolePaths.me), ...signedIn(all(200), all(200)) },
  { route: route('GET', consolePaths.clients), ...signedIn(all(200), all(200)) },
  { route: route('GET', `${consolePaths.clients}/:clientId`), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  // console-actions (decision 048): program managers and support agents act, auditors only read; PUT settings: program managers.
  ...[actions.launchAs, actions.adjustments, actions.status, actions.unlock, actions.endSessions, actions.resendMail, actions.details].map(
    (r) => ({
      route: r,
      ...signedIn({ ...all(200), auditor: 403 }, { ...all(403), owner: 200 }),
    }),
  ),
  { route: actions.getSettings, ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: actions.putSettings, ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }) },
  // Points that expire (decision 062): every role reads its client's settings; program managers and owners change them.
  { route: route('GET', '/clients/:clientId/settings/expiry'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('PUT', '/clients/:clientId/settings/expiry'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Part A, code batches (decision 063): every role of the client reads; program managers and owners generate
  // (fresh second factor, which every column's is) and void; another client's only an owner.
  { route: route('GET', '/clients/:clientId/codes/batches'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/codes/batches'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  { route: route('GET', '/clients/:clientId/codes/batches/:batch'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/codes/batches/:batch/void'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Issue 29 §1, API keys (decision 083): program managers and auditors of the client read the list; program managers
  // and owners make a key (fresh second factor) and revoke one; another client's only an owner.
  { route: route('GET', '/clients/:clientId/api-keys'), ...signedIn({ ...all(200), support_agent: 403 }, { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/api-keys'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  {
    route: route('POST', '/clients/:clientId/api-keys/:keyId/revoke'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Issue 29 §3, webhooks (decision 084): program managers and owners of the client read and change; adding an endpoint
  // and rotating its secret reveal the secret (fresh second factor); another client's only an owner.
  {
    route: route('GET', '/clients/:clientId/webhooks'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/webhooks'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  {
    route: route('PATCH', '/clients/:clientId/webhooks/:endpointId'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('DELETE', '/clients/:clientId/webhooks/:endpointId'),
    ...signedIn({ ...all(204), support_agent: 403, auditor: 403 }, { ...all(403), owner: 204 }),
  },
  {
    route: route('POST', '/clients/:clientId/webhooks/:endpointId/rotate-secret'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('GET', '/clients/:clientId/webhooks/:endpointId/deliveries'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/webhooks/deliveries/:deliveryId/resend'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Issue 32 §2, earning rules (decisions 095, 096): every role of the client reads the rules and tries an event (writing
  // nothing); program managers and owners add, change, enable and disable, with a reason; another client's only an owner.
  { route: route('GET', '/clients/:clientId/earning-rules'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/earning-rules'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  { route: route('GET', '/clients/:clientId/earning-rules/:ruleId'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('PUT', '/clients/:clientId/earning-rules/:ruleId'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/earning-rules/:ruleId/state'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  { route: route('POST', '/clients/:clientId/earning-rules-simulation'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  // Issue 32 §1, declared event types (decision 100): every role of the client reads; program managers and owners declare
  // and retire; another client's only an owner.
  { route: route('GET', '/clients/:clientId/event-types'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/event-types'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  {
    route: route('POST', '/clients/:clientId/event-types/:name/retire'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Part C, client settings (issue 20 §3, decision 065): every role of the client reads; program managers and owners change.
  { route: route('GET', '/clients/:clientId/settings/branding'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('PUT', '/clients/:clientId/settings/branding'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  { route: route('GET', '/clients/:clientId/settings/locales'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('GET', '/clients/:clientId/settings/program'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('PUT', '/clients/:clientId/settings/program'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('PUT', '/clients/:clientId/settings/locales'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Part H, client settings continued (issue 20 §3, decision 065): single sign-on; every role of the client reads
  // (never the secret); only owners change it (the server then fetches an address the caller chose).
  { route: route('GET', '/clients/:clientId/settings/sso'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('PUT', '/clients/:clientId/settings/sso'), ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }) },
  // Catalogs: every role reads (never a secret), program managers and owners change and rotate a partner's secret
  // (a fresh second factor, which every column's is).
  { route: route('GET', '/clients/:clientId/settings/catalogs'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('PUT', '/clients/:clientId/settings/catalogs'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/settings/catalogs/partners/:partnerId/secret'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/settings/catalogs/partners/:partnerId/revoke'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  // Part D, translations and content (issue 20 §4, decision 066): every role of the client reads, exports and previews;
  // program managers and owners edit, import and save.
  ...[texts.view, texts.exportBundle, texts.content, texts.contentEntry, texts.preview].map((r) => ({
    route: r,
    ...signedIn(all(200), { ...all(403), owner: 200 }),
  })),
  ...[texts.edit, texts.remove, texts.importBundle, texts.saveContent, texts.removeContent].map((r) => ({
    route: r,
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  })),
  // Part E, reports (decision 067): every role reads its own client's reports, only an owner another's; the
  // comparison lists the clients the caller sees (an owner: all), so every signed-in person gets one.
  ...['participants', 'points', 'codes', 'orders'].map((report) => ({
    route: route('GET', `/clients/:clientId/reports/${report}`),
    ...signedIn(all(200), { ...all(403), owner: 200 }),
  })),
  { route: route('GET', consoleReportPaths.comparison), ...signedIn(all(200), all(200)) },
  // Part B, imports (issue 20 §2, decision 064): every role of the client reads the jobs and their rejects;
  // program managers and owners upload, confirm and discard.
  { route: route('GET', '/clients/:clientId/imports'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/imports'),
    ...signedIn({ ...all(201), support_agent: 403, auditor: 403 }, { ...all(403), owner: 201 }),
  },
  { route: route('GET', '/clients/:clientId/imports/:jobId'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  {
    route: route('POST', '/clients/:clientId/imports/:jobId/confirm'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', '/clients/:clientId/imports/:jobId/discard'),
    ...signedIn({ ...all(200), support_agent: 403, auditor: 403 }, { ...all(403), owner: 200 }),
  },
  { route: route('GET', '/clients/:clientId/imports/:jobId/rejects.csv'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  // console-read (decision 047): every role reads its own client; only an owner another's. Search
  // and the audit trail name the client in the query (?clientId=): outside the caller's, 403.
  { route: route('GET', consoleParticipantPaths.search), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('GET', '/clients/:clientId/participants/:participantId'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('GET', '/clients/:clientId/participants/:participantId/statement'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  // A participant's events (decision 097): as the statement.
  { route: route('GET', '/clients/:clientId/participants/:participantId/events'), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('GET', consoleAuditPaths.entries), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  { route: route('GET', consoleAuditPaths.csv), ...signedIn(all(200), { ...all(403), owner: 200 }) },
  // console-staff (decision 049). Step-up: any full session (each column passes its own right factor). The table's
  // people enrolled with TOTP and hold no passkey: the options row shows the guard let them through (409, no passkey),
  // the passkey row their wrong answer (401); console-staff.test.ts passes a passkey step-up.
  { route: route('POST', consoleStaffPaths.stepUpTotp), ...signedIn(all(200), all(200)) },
  { route: route('POST', consoleStaffPaths.stepUpRecoveryCode), ...signedIn(all(200), all(200)) },
  { route: route('POST', consoleStaffPaths.stepUpPasskeyOptions), ...signedIn(all(409), all(409)) },
  { route: route('POST', consoleStaffPaths.stepUpPasskey), ...signedIn(all(401), all(401)) },
  // Staff management: owners only, the whole installation (own or other client alike); the changes with a fresh
  // second factor (every column's is: passed at enrolment, moments ago). Their target is a person of their own.
  { route: route('GET', consoleStaffPaths.staff), ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }) },
  { route: route('GET', `${consoleStaffPaths.staff}/:staffId`), ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }) },
  { route: route('POST', consoleStaffPaths.invitations), ...signedIn({ ...all(403), owner: 201 }, { ...all(403), owner: 201 }) },
  {
    route: route('PUT', `${consoleStaffPaths.staff}/:staffId/roles`),
    ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', `${consoleStaffPaths.staff}/:staffId/disable`),
    ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', `${consoleStaffPaths.staff}/:staffId/enable`),
    ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }),
  },
  {
    route: route('POST', `${consoleStaffPaths.staff}/:staffId/reset`),
    ...signedIn({ ...all(403), owner: 200 }, { ...all(403), owner: 200 }),
  },
  // Your account (decision 070): any full session, on its own person only, the same in any client. The password row
  // changes each person's password and back (own column: to another, other column: back again); the second factors'
  // rows pass with the fresh second factor the step-up rows gave; each column removes the passkey it added.
  { route: route('GET', consoleAccountPaths.account), ...signedIn(all(200), all(200)) },
  { route: route('PUT', consoleAccountPaths.password), ...signedIn(all(200), all(200)) },
  { route: route('POST', consoleAccountPaths.recoveryCodes), ...signedIn(all(200), all(200)) },
  { route: route('POST', consoleAccountPaths.passkeyOptions), ...signedIn(all(200), all(200)) },
  { route: route('POST', consoleAccountPaths.passkeys), ...signedIn(all(201), all(201)) },
  { route: route('DELETE', `${consoleAccountPaths.passkeys}/:passkeyId`), ...signedIn(all(200), all(200)) },
  // Everyone in the table has an authenticator app already: the guard lets them through to the 409.
  { route: route('POST', consoleAccountPaths.totpSecret), ...signedIn(all(409), all(409)) },
  { route: route('POST', consoleAccountPaths.totp), ...signedIn(all(409), all(409)) },
  // F staff OIDC sign-in (issue 20 §6, decision 068): public, the same for every caller. This app has no provider:
  // the start redirects to the sign-in page (?oidc=off), as does a callback without a state (?oidc=error);
  // modules/staff/oidc.test.ts walks the flow against the real provider.
  { route: route('GET', consolePaths.signInMethods), ...everyone(200) },
  { route: route('GET', consolePaths.signInOidc), ...everyone(302) },
  { route: route('GET', consolePaths.signInOidcCallback), ...everyone(302) },
  // Last: it ends the caller's session. Answered alike, with or without one.
  { route: route('POST', consolePaths.signOut), ...everyone(204) },
];

function grid(rows: Row[]): string {
  const line = (cells: readonly unknown[]) => `| ${cells.join(' | ')} |`;
  return [
    '',
    line(['route', ...COLUMNS]),
    line(['---', ...COLUMNS.map(() => '---')]),
    ...rows.map((row) => line([row.route, ...COLUMNS.map((c) => row[c])])),
  ].join('\n');
}

describe.each(dialects)('the console role table on %s', (dialect) => {
  let t: ConsoleTestApp;
  const people = {} as Record<Kind, EnrolledStaff>;
  const sessions = {} as Record<Kind, string>;
  let liveEnrolmentToken = '';
  /** Someone who enrolled with a passkey: the half column of the passkey rows is theirs. */
  let passkeyHolder: { email: string; authenticator: TestAuthenticator };

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    people.owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    for (const role of ['program_manager', 'support_agent', 'auditor'] as const)
      people[role] = await enrolStaff(t, `${role}@acme.test`, { roles: [{ clientId: OWN, role }] });
    for (const kind of KINDS) sessions[kind] = people[kind].cookie;
    const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
      email: 'invited@acme.test',
      name: 'Invited',
      owner: false,
      roles: [{ clientId: OWN, role: 'auditor' }],
    });
    liveEnrolmentToken = tokenOf(enrolment.url);
    expect(
      (await t.console('POST', consolePaths.enrolmentPassword, { token: liveEnrolmentToken, body: { password: STAFF_PASSWORD } }))
        .statusCode,
    ).toBe(200);
    passkeyHolder = { email: 'passkey@acme.test', authenticator: new TestAuthenticator('console.localhost', t.config.console.origin) };
    const { enrolment: passkeyLink } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
      email: passkeyHolder.email,
      name: 'Passkey',
      owner: false,
      roles: [{ clientId: OWN, role: 'support_agent' }],
    });
    const passkeyToken = tokenOf(passkeyLink.url);
    await t.console('POST', consolePaths.enrolmentPassword, { token: passkeyToken, body: { password: STAFF_PASSWORD } });
    const creation = (await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token: passkeyToken })).json<{ challenge: string }>();
    expect(
      (
        await t.console('POST', consolePaths.enrolmentPasskey, {
          token: passkeyToken,
          body: { credential: passkeyHolder.authenticator.register(creation) },
        })
      ).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  /** A new half session (the password passed, nothing more) of the support agent, or of the passkey holder. */
  async function halfSession(email = people.support_agent.email): Promise<string> {
    const reply = await t.console('POST', consolePaths.signIn, { body: { email, password: STAFF_PASSWORD } });
    return consoleCookieOf(reply) ?? '';
  }

  /** console-read: a client's participant "demo", by id. */
  const demoOf = async (clientId: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', clientId)
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow()
    ).id;
  /** console-staff: the person a column's staff-management cells act on, one per column (created by the operator). */
  const managedIds = new Map<string, string>();
  async function managed(column: Column): Promise<string> {
    const known = managedIds.get(column);
    if (known) return known;
    const { staff } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
      email: `managed-${column.replace(':', '-')}@acme.test`,
      name: 'Managed',
      owner: false,
      roles: [{ clientId: OWN, role: 'auditor' }],
    });
    managedIds.set(column, staff.id);
    return staff.id;
  }

  /** Part A, code batches: a batch of a client's to read and void (its codes stored directly). */
  const roleTableBatches = new Set<string>();
  async function roleTableBatch(clientId: string): Promise<string> {
    if (!roleTableBatches.has(clientId)) {
      await insertOtsCodes(
        t.database.db,
        newOtsCodeRows(clientId, [{ code: `ROLE-TABLE-${clientId}`, value: 5, batch: 'role-table' }], new Date()),
      );
      roleTableBatches.add(clientId);
    }
    return 'role-table';
  }
  /** Issue 32 §2, earning rules: two rules per client (one to change, one to enable and disable), made by the operator. */
  const roleTableRuleSets = new Map<string, Promise<void>>();
  function roleTableRules(clientId: string): Promise<void> {
    let made = roleTableRuleSets.get(clientId);
    if (!made) {
      const operator = { kind: 'operator' as const, name: 'role-table', origin: 'test' };
      const rule = (id: string) => ({ id, name: 'Role table', event: 'purchase', earn: { points: 5 } });
      made = (async () => {
        await createRule(t.database.db, operator, clientId, rule('role-table-change'), 'role table');
        await createRule(t.database.db, operator, clientId, rule('role-table-state'), 'role table');
      })();
      roleTableRuleSets.set(clientId, made);
    }
    return made;
  }
  /** Issue 29 §3, webhooks: one endpoint per client, told one event, for the rows that change or read it. */
  const roleTableEndpoints = new Map<string, Promise<{ endpointId: string; deliveryId: string }>>();
  function roleTableEndpoint(clientId: string): Promise<{ endpointId: string; deliveryId: string }> {
    let made = roleTableEndpoints.get(clientId);
    if (!made) {
      made = (async () => {
        const db = t.database.db;
        const { endpoint } = await createEndpoint(
          db,
          { dataDir: t.config.catalog.dataDir, policy: { allowLoopback: true } },
          { name: 'operator', kind: 'operator' },
          { clientId, url: 'http://127.0.0.1:9/role-table', events: ['*'], reason: 'role table' },
        );
        // No delivery worker runs in the test app: the delivery stays pending, and each resend makes it due again.
        await db.transaction().execute((trx) => tellWebhooks(trx, { clientId, kind: 'points.credited', username: 'demo', data: {} }));
        const delivery = await db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('endpoint_id', '=', endpoint.id)
          .executeTakeFirstOrThrow();
        return { endpointId: endpoint.id, deliveryId: delivery.id };
      })();
      roleTableEndpoints.set(clientId, made);
    }
    return made;
  }
  /** Part B, imports: a staged points file of its own per cell, and a client whose last job has ended. */
  let staged = 0;
  async function stagedJob(clientId: string, column: Column): Promise<string> {
    async function* body() {
      yield `username,points,date,description,external_id\ndemo,1,2026-04-01,Role table,staged-${column}-${(staged += 1)}\n`;
    }
    const { id } = await stageImport(
      t.database.db,
      { name: 'role-table', kind: 'operator', origin: null },
      clientId,
      'points',
      'cell.csv',
      body(),
    );
    // Previewed, as the jobs loop does after an upload (decision 064, amended).
    await previewImportJob(t.database.db, id);
    return id;
  }
  const readJobs = new Map<string, string>();
  async function readJob(clientId: string): Promise<string> {
    if (!readJobs.has(clientId)) readJobs.set(clientId, await stagedJob(clientId, 'anonymous'));
    return readJobs.get(clientId)!;
  }
  async function clientSlotFree(clientId: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (await t.database.db.selectFrom('job_slots').select('job_id').where('client_id', '=', clientId).executeTakeFirst()) {
      if (Date.now() > deadline) throw new Error(`the import job of ${clientId} did not end`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Your account: the passkey each column added, for it to remove. */
  const addedPasskeys = new Map<Column, string>();

  /** One cell: the row's request as this caller makes it. */
  async function call(row: string, column: Column): Promise<LightMyRequestResponse> {
    const [kind, scope] = column.split(':') as [Kind | 'anonymous' | 'half', 'own' | 'other' | undefined];
    const clientId = scope === 'other' ? OTHER : OWN;
    const passkeyRow = row.includes('/sign-in/passkey');
    const cookie =
      kind === 'anonymous' ? undefined : kind === 'half' ? await halfSession(passkeyRow ? passkeyHolder.email : undefined) : sessions[kind];
    const send = (method: HTTPMethods, path: string, options: { body?: unknown; token?: string } = {}) =>
      t.console(method, path, { cookie, ...options });
    switch (row) {
      case route('POST', consolePaths.signIn):
        return send('POST', consolePaths.signIn, { body: { email: `nobody-${column}@acme.test`, password: 'Not-The-Password-1' } });
      case route('POST', consolePaths.signInTotp):
        return send('POST', consolePaths.signInTotp, {
          body: { code: await freshCode(t, people.support_agent.email, people.support_agent.secret) },
        });
      case route('POST', consolePaths.signInRecoveryCode):
        // A new code for each cell: a used one would fail for its own reason.
        return send('POST', consolePaths.signInRecoveryCode, { body: { code: people.support_agent.recoveryCodes.pop() } });
      case route('POST', consolePaths.signInPasskeyOptions):
        return send('POST', consolePaths.signInPasskeyOptions);
      case route('POST', consolePaths.signInPasskey): {
        // The options first, as the console asks for them; a caller who may not gets none.
        const options = await send('POST', consolePaths.signInPasskeyOptions);
        const challenge = options.statusCode === 200 ? options.json<{ challenge: string }>().challenge : 'bm8tY2hhbGxlbmdlLWZvci15b3U';
        return send('POST', consolePaths.signInPasskey, { body: { credential: passkeyHolder.authenticator.authenticate({ challenge }) } });
      }
      case route('POST', consolePaths.enrolmentPasskeyOptions):
        return send('POST', consolePaths.enrolmentPasskeyOptions, { token: liveEnrolmentToken });
      case route('POST', consolePaths.enrolmentPasskey):
        return send('POST', consolePaths.enrolmentPasskey, {
          token: 'unknown-link',
          body: { credential: passkeyHolder.authenticator.register({ challenge: 'bm8tY2hhbGxlbmdl' }) },
        });
      case route('GET', consolePaths.enrolment):
        return send('GET', consolePaths.enrolment, { token: liveEnrolmentToken });
      case route('POST', consolePaths.enrolmentPassword):
        return send('POST', consolePaths.enrolmentPassword, { token: 'unknown-link', body: { password: 'A-Good-Password-2026' } });
      case route('POST', consolePaths.enrolmentTotp):
        return send('POST', consolePaths.enrolmentTotp, { token: 'unknown-link', body: { code: '123456' } });
      case route('GET', consolePaths.me):
        return send('GET', consolePaths.me);
      case route('GET', consolePaths.clients):
        return send('GET', consolePaths.clients);
      case route('GET', `${consolePaths.clients}/:clientId`):
        return send('GET', consolePaths.client(clientId));
      // console-read: each client's participant "demo".
      case route('GET', consoleParticipantPaths.search):
        return send('GET', `${consoleParticipantPaths.search}?q=demo&clientId=${clientId}`);
      case route('GET', '/clients/:clientId/participants/:participantId'):
        return send('GET', consoleParticipantPaths.participant(clientId, await demoOf(clientId)));
      case route('GET', '/clients/:clientId/participants/:participantId/statement'):
        return send('GET', consoleParticipantPaths.statement(clientId, await demoOf(clientId)));
      case route('GET', '/clients/:clientId/participants/:participantId/events'):
        return send('GET', `${consoleParticipantPaths.participant(clientId, await demoOf(clientId))}/events`);
      case route('GET', consoleAuditPaths.entries):
        return send('GET', `${consoleAuditPaths.entries}?clientId=${clientId}`);
      case route('GET', consoleAuditPaths.csv):
        return send('GET', `${consoleAuditPaths.csv}?clientId=${clientId}`);
      // console-staff (decision 049)
      case route('POST', consoleStaffPaths.stepUpTotp): {
        const person = kind in people ? people[kind as Kind] : people.support_agent;
        return send('POST', consoleStaffPaths.stepUpTotp, { body: { code: await freshCode(t, person.email, person.secret) } });
      }
      case route('POST', consoleStaffPaths.stepUpRecoveryCode): {
        // A code of its own for each cell (the sign-in row has used the agent's ten).
        const person = kind in people ? people[kind as Kind] : people.support_agent;
        const { id } = await t.database.db
          .selectFrom('staff')
          .select('id')
          .where('email_key', '=', person.email.toLowerCase())
          .executeTakeFirstOrThrow();
        await replaceRecoveryCodes(t.database.db, id, [hashRecoveryCode(id, 'abcde-fghjk')], new Date().toISOString());
        return send('POST', consoleStaffPaths.stepUpRecoveryCode, { body: { code: 'abcde-fghjk' } });
      }
      case route('POST', consoleStaffPaths.stepUpPasskeyOptions):
        return send('POST', consoleStaffPaths.stepUpPasskeyOptions);
      case route('POST', consoleStaffPaths.stepUpPasskey):
        return send('POST', consoleStaffPaths.stepUpPasskey, {
          body: { credential: passkeyHolder.authenticator.authenticate({ challenge: 'bm8tY2hhbGxlbmdlLWZvci15b3U' }) },
        });
      case route('GET', consoleStaffPaths.staff):
        return send('GET', consoleStaffPaths.staff);
      case route('GET', `${consoleStaffPaths.staff}/:staffId`):
        return send('GET', consoleStaffPaths.member(await managed(column)));
      case route('POST', consoleStaffPaths.invitations):
        return send('POST', consoleStaffPaths.invitations, {
          body: {
            email: `invited-${column.replace(':', '-')}@acme.test`,
            name: 'Invited',
            roles: [{ clientId, role: 'auditor' }],
            reason: 'role table',
          },
        });
      case route('PUT', `${consoleStaffPaths.staff}/:staffId/roles`):
        return send('PUT', consoleStaffPaths.roles(await managed(column)), {
          body: { roles: [{ clientId, role: 'support_agent' }], reason: 'role table' },
        });
      case route('POST', `${consoleStaffPaths.staff}/:staffId/disable`):
        return send('POST', consoleStaffPaths.disable(await managed(column)), { body: { reason: 'role table' } });
      case route('POST', `${consoleStaffPaths.staff}/:staffId/enable`):
        return send('POST', consoleStaffPaths.enable(await managed(column)), { body: { reason: 'role table' } });
      case route('POST', `${consoleStaffPaths.staff}/:staffId/reset`):
        return send('POST', consoleStaffPaths.reset(await managed(column)), { body: { reason: 'role table' } });
      // Your account (decision 070)
      case route('GET', consoleAccountPaths.account):
        return send('GET', consoleAccountPaths.account);
      case route('PUT', consoleAccountPaths.password): {
        const other = scope === 'other';
        return send('PUT', consoleAccountPaths.password, {
          body: {
            currentPassword: other ? ROLE_TABLE_PASSWORD : STAFF_PASSWORD,
            newPassword: other ? STAFF_PASSWORD : ROLE_TABLE_PASSWORD,
          },
        });
      }
      case route('POST', consoleAccountPaths.recoveryCodes):
        return send('POST', consoleAccountPaths.recoveryCodes);
      case route('POST', consoleAccountPaths.passkeyOptions):
        return send('POST', consoleAccountPaths.passkeyOptions);
      case route('POST', consoleAccountPaths.passkeys): {
        const options = await send('POST', consoleAccountPaths.passkeyOptions);
        const challenge = options.statusCode === 200 ? options.json<{ challenge: string }>() : { challenge: 'bm8tY2hhbGxlbmdl' };
        const authenticator = new TestAuthenticator('console.localhost', t.config.console.origin);
        addedPasskeys.set(column, authenticator.id);
        return send('POST', consoleAccountPaths.passkeys, { body: { credential: authenticator.register(challenge) } });
      }
      case route('DELETE', `${consoleAccountPaths.passkeys}/:passkeyId`):
        return send('DELETE', consoleAccountPaths.passkey(addedPasskeys.get(column) ?? 'bm9uZQ'));
      case route('POST', consoleAccountPaths.totpSecret):
        return send('POST', consoleAccountPaths.totpSecret);
      case route('POST', consoleAccountPaths.totp):
        return send('POST', consoleAccountPaths.totp, { body: { sealed: 'not-sealed', code: '123456' } });
      case route('GET', '/clients/:clientId/settings/expiry'):
        return send('GET', consoleClientPaths.expirySettings(clientId));
      case route('PUT', '/clients/:clientId/settings/expiry'):
        // Other reminder days for each cell: every allowed call changes something.
        return send('PUT', consoleClientPaths.expirySettings(clientId), {
          body: {
            policy: { type: 'rolling', months: 12 },
            timeZone: 'Europe/Paris',
            reminderDays: 20 + column.length,
            lastChanceDays: 7,
            reason: 'role table: ticket 19',
          },
        });
      // Part A, code batches: a batch of its own per column for generate; one seeded batch per client to read and void.
      case route('GET', '/clients/:clientId/codes/batches'):
        return send('GET', consoleCodesPaths.batches(clientId));
      case route('POST', '/clients/:clientId/codes/batches'):
        return send('POST', consoleCodesPaths.batches(clientId), {
          body: { name: `role table ${column}`, count: 1, value: 10, reason: 'role table' },
        });
      case route('GET', '/clients/:clientId/codes/batches/:batch'):
        return send('GET', consoleCodesPaths.batch(clientId, await roleTableBatch(clientId)));
      case route('POST', '/clients/:clientId/codes/batches/:batch/void'):
        return send('POST', consoleCodesPaths.voidCodes(clientId, await roleTableBatch(clientId)), { body: { reason: 'role table' } });
      // Issue 29 §1, API keys: a key of its own per cell to make and to revoke.
      case route('GET', '/clients/:clientId/api-keys'):
        return send('GET', consoleApiKeysPaths.keys(clientId));
      case route('POST', '/clients/:clientId/api-keys'):
        return send('POST', consoleApiKeysPaths.keys(clientId), {
          body: { name: `role table ${column}`, scopes: ['points:read'], reason: 'role table' },
        });
      case route('POST', '/clients/:clientId/api-keys/:keyId/revoke'): {
        const { view } = await createApiKey(t.database.db, {
          clientId,
          name: `role table revoke ${column}`,
          scopes: ['points:read'],
          createdBy: 'operator',
          actorKind: 'operator',
          reason: 'role table',
        });
        return send('POST', consoleApiKeysPaths.revoke(clientId, view.id), { body: { reason: 'role table' } });
      }
      // Issue 29 §3, webhooks: an endpoint of its own per cell to add; one per client to change, rotate, read and resend.
      case route('GET', '/clients/:clientId/webhooks'):
        return send('GET', consoleWebhooksPaths.endpoints(clientId));
      case route('POST', '/clients/:clientId/webhooks'):
        return send('POST', consoleWebhooksPaths.endpoints(clientId), {
          body: { url: `http://127.0.0.1:9/${column.replace(':', '-')}`, events: ['points.credited'], reason: 'role table' },
        });
      case route('PATCH', '/clients/:clientId/webhooks/:endpointId'):
        return send('PATCH', consoleWebhooksPaths.endpoint(clientId, (await roleTableEndpoint(clientId)).endpointId), {
          body: { description: `role table ${column}`, reason: 'role table' },
        });
      case route('DELETE', '/clients/:clientId/webhooks/:endpointId'): {
        // An endpoint of its own per cell: a removal that passes leaves nothing for the next cell.
        const { endpoint } = await createEndpoint(
          t.database.db,
          { dataDir: t.config.catalog.dataDir, policy: { allowLoopback: true } },
          { name: 'operator', kind: 'operator' },
          { clientId, url: `http://127.0.0.1:9/delete-${column.replace(':', '-')}`, events: ['*'], reason: 'role table' },
        );
        return send('DELETE', consoleWebhooksPaths.endpoint(clientId, endpoint.id), { body: { reason: 'role table' } });
      }
      case route('POST', '/clients/:clientId/webhooks/:endpointId/rotate-secret'):
        return send('POST', consoleWebhooksPaths.rotateSecret(clientId, (await roleTableEndpoint(clientId)).endpointId), {
          body: { overlapHours: 1, reason: 'role table' },
        });
      case route('GET', '/clients/:clientId/webhooks/:endpointId/deliveries'):
        return send('GET', consoleWebhooksPaths.deliveries(clientId, (await roleTableEndpoint(clientId)).endpointId));
      case route('POST', '/clients/:clientId/webhooks/deliveries/:deliveryId/resend'):
        return send('POST', consoleWebhooksPaths.resend(clientId, (await roleTableEndpoint(clientId)).deliveryId), {
          body: { reason: 'role table' },
        });
      // Issue 32 §2, earning rules: a rule of its own per cell to add; one per client to read, change and enable/disable.
      case route('GET', '/clients/:clientId/earning-rules'):
        return send('GET', consoleEarningRulesPaths.rules(clientId));
      case route('POST', '/clients/:clientId/earning-rules'):
        return send('POST', consoleEarningRulesPaths.rules(clientId), {
          body: { rule: { name: `Role table ${column}`, event: 'purchase', earn: { points: 1 } }, reason: 'role table' },
        });
      case route('GET', '/clients/:clientId/earning-rules/:ruleId'):
        await roleTableRules(clientId);
        return send('GET', consoleEarningRulesPaths.rule(clientId, 'role-table-change'));
      case route('PUT', '/clients/:clientId/earning-rules/:ruleId'):
        await roleTableRules(clientId);
        return send('PUT', consoleEarningRulesPaths.rule(clientId, 'role-table-change'), {
          body: { rule: { name: `Role table ${column}`, event: 'purchase', earn: { points: 5 } }, reason: 'role table' },
        });
      case route('POST', '/clients/:clientId/earning-rules/:ruleId/state'):
        await roleTableRules(clientId);
        return send('POST', consoleEarningRulesPaths.state(clientId, 'role-table-state'), {
          body: { enabled: !column.startsWith('owner'), reason: 'role table' },
        });
      case route('POST', '/clients/:clientId/earning-rules-simulation'):
        return send('POST', consoleEarningRulesPaths.simulate(clientId), { body: { type: 'purchase', amount: '10.00' } });
      // Issue 32 §1, declared event types: a type of its own per cell to declare, and another (declared by the operator) to retire.
      case route('GET', '/clients/:clientId/event-types'):
        return send('GET', consoleEventTypesPaths.types(clientId));
      case route('POST', '/clients/:clientId/event-types'):
        return send('POST', consoleEventTypesPaths.types(clientId), {
          body: { name: `role.table.${column.replace(':', '.')}`, description: 'role table' },
        });
      case route('POST', '/clients/:clientId/event-types/:name/retire'): {
        const name = `role.retire.${column.replace(':', '.')}`;
        await declareEventType(t.database.db, { kind: 'operator', name: 'role-table', origin: 'test' }, clientId, { name });
        return send('POST', consoleEventTypesPaths.retire(clientId, name), { body: { reason: 'role table' } });
      }
      // F staff OIDC sign-in
      case route('GET', consolePaths.signInMethods):
        return send('GET', consolePaths.signInMethods);
      case route('GET', consolePaths.signInOidc):
        return send('GET', consolePaths.signInOidc);
      case route('GET', consolePaths.signInOidcCallback):
        return send('GET', `${consolePaths.signInOidcCallback}?code=x`);
      // Part C, client settings (issue 20 §3, decision 065).
      case route('GET', '/clients/:clientId/settings/branding'):
        return send('GET', consoleClientPaths.brandingSettings(clientId));
      case route('PUT', '/clients/:clientId/settings/branding'):
        return send('PUT', consoleClientPaths.brandingSettings(clientId), {
          body: { name: `Program ${column}`, brandColor: '#0f766e', reason: 'role table: issue 20' },
        });
      case route('GET', '/clients/:clientId/settings/program'):
        return send('GET', consoleClientPaths.programSettings(clientId));
      case route('PUT', '/clients/:clientId/settings/program'):
        // Another privacy notice version for each cell: every allowed call changes something.
        return send('PUT', consoleClientPaths.programSettings(clientId), {
          body: {
            passwordRules: {
              minLength: 10,
              maxLength: 128,
              requireUpper: true,
              requireLower: true,
              requireDigit: true,
              requireSymbol: false,
              notUsername: true,
            },
            activationFields: ['accountNumber', 'lastName'],
            travelUrl: null,
            supportEmail: '',
            privacyNoticeVersion: 100 + column.length,
            reason: 'role table: issue 20',
          },
        });
      case route('GET', '/clients/:clientId/settings/locales'):
        return send('GET', consoleClientPaths.localeSettings(clientId));
      case route('PUT', '/clients/:clientId/settings/locales'): {
        // The client's own locales kept; its default's label changed per cell, so every allowed call changes something.
        const db = t.database.db;
        const locales = await db
          .selectFrom('client_locales')
          .select('code')
          .where('client_id', '=', clientId)
          .orderBy('position')
          .execute();
        const { default_locale: defaultLocale } = await db
          .selectFrom('clients')
          .select('default_locale')
          .where('id', '=', clientId)
          .executeTakeFirstOrThrow();
        return send('PUT', consoleClientPaths.localeSettings(clientId), {
          body: {
            locales,
            defaultLocale,
            mediaLabels: [{ locale: defaultLocale, label: `Stars ${column}` }],
            reason: 'role table: issue 20',
          },
        });
      }
      // Part H: single sign-on. Turning it off needs no provider (the table starts none); the check of one is sso/console-settings.test.ts.
      case route('GET', '/clients/:clientId/settings/sso'):
        return send('GET', consoleClientPaths.ssoSettings(clientId));
      case route('PUT', '/clients/:clientId/settings/sso'):
        return send('PUT', consoleClientPaths.ssoSettings(clientId), { body: { enabled: false, reason: 'role table: issue 20' } });
      case route('GET', '/clients/:clientId/settings/catalogs'):
        return send('GET', consoleClientPaths.catalogSettings(clientId));
      case route('PUT', '/clients/:clientId/settings/catalogs'):
        // A partner of its own per cell (created with a secret): every allowed call changes something.
        return send('PUT', consoleClientPaths.catalogSettings(clientId), {
          body: {
            merchandise: { url: 'https://shop.example/role-table', partnerId: `role-${clientId}-${column.replace(':', '-')}` },
            experiences: null,
            reason: 'role table: issue 20',
          },
        });
      case route('POST', '/clients/:clientId/settings/catalogs/partners/:partnerId/secret'): {
        const partnerId = `rotate-${clientId}`;
        await t.database.db
          .insertInto('catalog_partners')
          .values({ id: partnerId, client_id: clientId, name: 'Role table', secret_hash: 'x', created_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return send('POST', consoleClientPaths.partnerSecret(clientId, partnerId), { body: { reason: 'role table: issue 20' } });
      }
      case route('POST', '/clients/:clientId/settings/catalogs/partners/:partnerId/revoke'): {
        // A partner of its own per cell, named by no catalog: every allowed call revokes one.
        const partnerId = `revoke-${clientId}-${column.replace(':', '-')}`;
        await t.database.db
          .insertInto('catalog_partners')
          .values({ id: partnerId, client_id: clientId, name: 'Role table', secret_hash: 'x', created_at: new Date().toISOString() })
          .execute();
        return send('POST', consoleClientPaths.partnerRevoke(clientId, partnerId), { body: { reason: 'role table: issue 20' } });
      }
      // Part E, reports (decision 067)
      case route('GET', '/clients/:clientId/reports/participants'):
        return send('GET', consoleReportPaths.participants(clientId));
      case route('GET', '/clients/:clientId/reports/points'):
        return send('GET', consoleReportPaths.points(clientId));
      case route('GET', '/clients/:clientId/reports/codes'):
        return send('GET', consoleReportPaths.codes(clientId));
      case route('GET', '/clients/:clientId/reports/orders'):
        return send('GET', consoleReportPaths.orders(clientId));
      case route('GET', consoleReportPaths.comparison):
        return send('GET', consoleReportPaths.comparison);
      // Part B, imports: a small points file per cell, staged by the service where the cell only reads or confirms.
      case route('GET', '/clients/:clientId/imports'):
        return send('GET', consoleImportPaths.imports(clientId));
      case route('POST', '/clients/:clientId/imports'):
        return t.console('POST', `${consoleImportPaths.imports(clientId)}?kind=points&fileName=cell.csv`, {
          cookie,
          headers: { 'content-type': 'text/csv' },
          payload: `username,points,date,description,external_id\ndemo,1,2026-04-01,Role table,role-${column}\n`,
        });
      case route('GET', '/clients/:clientId/imports/:jobId'):
        return send('GET', consoleImportPaths.job(clientId, await readJob(clientId)));
      case route('GET', '/clients/:clientId/imports/:jobId/rejects.csv'):
        return send('GET', consoleImportPaths.rejects(clientId, await readJob(clientId)));
      case route('POST', '/clients/:clientId/imports/:jobId/confirm'): {
        const jobId = await stagedJob(clientId, column);
        await clientSlotFree(clientId);
        return send('POST', consoleImportPaths.confirm(clientId, jobId), { body: { reason: 'role table' } });
      }
      case route('POST', '/clients/:clientId/imports/:jobId/discard'):
        return send('POST', consoleImportPaths.discard(clientId, await stagedJob(clientId, column)), { body: {} });
      case route('POST', consolePaths.signOut):
        return send('POST', consolePaths.signOut);
      default: {
        const action =
          (await consoleActionRequest(t.database.db, row, clientId, column, send)) ??
          (await consoleTextRequest(row, clientId, column, send));
        if (action) return action;
        throw new Error(`no request for ${row}`);
      }
    }
  }

  it('has a row for every console route the app registers, and no row without a route', () => {
    const routes = registeredRoutes(t.app)
      .filter((r) => r.url.startsWith(`${CONSOLE_API_BASE}/`))
      .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD').map((m) => `${m} ${r.url}`));
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const rows = expected.map((r) => r.route);
    expect(
      routes.filter((r) => !rows.includes(r)),
      'console routes without a row in the role table',
    ).toEqual([]);
    expect(
      rows.filter((r) => !routes.includes(r)),
      'rows of the role table that name no route',
    ).toEqual([]);
  });

  it('answers every caller of every console route as the table says', async () => {
    const observed: Row[] = [];
    for (const row of expected) {
      const cells = { route: row.route } as Row;
      for (const column of COLUMNS) cells[column] = (await call(row.route, column)).statusCode;
      observed.push(cells);
    }
    expect(observed, `observed:${grid(observed)}`).toEqual(expected);
    // Ten callers for each of the console's routes, one after another (some rows change what the next reads).
  }, 300_000);

  it('tells each what they may see: an owner every client, the others their own only', async () => {
    // Sessions of the table's test may have ended with its sign-out row: sign in again.
    const owner = await enrolStaff(t, 'owner2@rewards.test', { owner: true });
    const agent = await enrolStaff(t, 'agent2@acme.test', {
      roles: [
        { clientId: OWN, role: 'support_agent' },
        { clientId: OTHER, role: 'auditor' },
      ],
    });
    const list = async (cookie: string) =>
      (await t.console('GET', consolePaths.clients, { cookie }))
        .json<Array<{ id: string; role: string | null }>>()
        .map((c) => `${c.id}:${c.role}`);
    expect(await list(owner.cookie)).toEqual(['acme:null', 'globex:null', 'nimbus:null']);
    expect(await list(agent.cookie)).toEqual(['acme:support_agent', 'globex:auditor']);
  });
});

describe.each(dialects)('requireRole on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
  });
  afterAll(() => t.close());

  it('lets through an owner and the roles it names in the client the request names, and no one else', async () => {
    // A route of a later slice: program managers only (an auditor reads, a support agent acts within limits).
    const guarded = Fastify();
    registerErrorHandler(guarded);
    await guarded.register(cookie);
    guarded.decorateRequest('staff', null);
    guarded.addHook('onRequest', consoleGate(t.config.console));
    const managersOnly: readonly StaffRole[] = ['program_manager'];
    guarded.post(
      '/clients/:clientId/settings',
      { preHandler: requireRole(t.database.db, t.config.console, (r) => (r.params as { clientId: string }).clientId, managersOnly) },
      async () => ({ ok: true }),
    );
    await guarded.ready();

    const owner = await enrolStaff(t, 'o@rewards.test', { owner: true });
    const manager = await enrolStaff(t, 'm@acme.test', {
      roles: [
        { clientId: OWN, role: 'program_manager' },
        { clientId: OTHER, role: 'auditor' },
      ],
    });
    const agent = await enrolStaff(t, 'a@acme.test', { roles: [{ clientId: OWN, role: 'support_agent' }] });
    const status = async (cookie: string | undefined, clientId: string) =>
      (
        await guarded.inject({
          method: 'POST',
          url: `/clients/${clientId}/settings`,
          headers: {
            host: 'console.localhost:3000',
            origin: t.config.console.origin,
            ...(cookie ? { cookie: `rewards_console=${cookie}` } : {}),
          },
        })
      ).statusCode;

    expect({
      ownerOwn: await status(owner.cookie, OWN),
      ownerOther: await status(owner.cookie, OTHER),
      ownerUnknownClient: await status(owner.cookie, 'nowhere'),
      managerOwn: await status(manager.cookie, OWN),
      managerWhereAuditor: await status(manager.cookie, OTHER),
      managerUnknownClient: await status(manager.cookie, 'nowhere'),
      agentOwn: await status(agent.cookie, OWN),
      agentOther: await status(agent.cookie, OTHER),
      noSession: await status(undefined, OWN),
      participantLikeId: await status('x'.repeat(43), OWN),
    }).toEqual({
      ownerOwn: 200,
      ownerOther: 200,
      ownerUnknownClient: 200,
      managerOwn: 200,
      managerWhereAuditor: 403,
      managerUnknownClient: 403,
      agentOwn: 403,
      agentOther: 403,
      noSession: 401,
      participantLikeId: 401,
    });
    await guarded.close();
  });
});
