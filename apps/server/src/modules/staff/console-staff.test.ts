import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths, type EnrolmentView } from '@rewards/contract/console';
import { consoleStaffPaths, FRESH_SECOND_FACTOR_MINUTES, type StaffMember, type StepUpReply } from '@rewards/contract/console-staff';
import { buildApp } from '../../app.ts';
import { dialects } from '../../../test/databases.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { createMailDelivery } from '../mail/delivery.ts';
import { parseEml } from '../mail/eml.ts';
import { listOutbox } from '../mail/listing.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { createStaff } from './accounts.ts';
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

const MINUTE = 60_000;
const ENROL_LINK = /http:\/\/console\.localhost:3000\/console\/enrol#([A-Za-z0-9_-]{43})/;

type Reply = LightMyRequestResponse;
const codeOf = (reply: Reply) => reply.json<{ errorCode: number }>().errorCode;

/**
 * The console's staff management and step-up (docs/decisions/049) through the API, on both
 * engines: owners invite by mail (delivered to a real SMTP server in the test process), replace
 * roles, disable, enable and reset, each with a reason, a fresh second factor and an audit entry;
 * the guard rails; step-up with each factor and its limit under a burst.
 */
describe.each(dialects)('console staff management and step-up on %s', (dialect) => {
  let t: ConsoleTestApp;
  let sink: SmtpSink;
  /** The app again over the same database, logging everything (debug) into `logs`. */
  let logged: FastifyInstance;
  let logs = '';
  let owner: EnrolledStaff;
  let ownerId: string;
  const deliveryLog: string[] = [];

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    sink = await createSmtpSink();
    await sink.up();
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    logged = await buildApp({ config: { ...t.config, logLevel: 'debug' }, db: t.database.db, logStream });
    await logged.ready();
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    ownerId = await idOf(owner.email);
  });
  afterAll(async () => {
    await logged.close();
    await sink.down();
    await t.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
    sink.received.length = 0;
  });

  /** A console call as its pages make it, through the logging app. */
  function call(method: HTTPMethods, path: string, cookie: string | undefined, body?: unknown, raw?: string): Promise<Reply> {
    return logged.inject({
      method,
      url: `${CONSOLE_API_BASE}${path}`,
      headers: {
        host: 'console.localhost:3000',
        ...(method === 'GET' ? {} : { origin: t.config.console.origin }),
        ...(body === undefined && raw === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie: `rewards_console=${cookie}` } : {}),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      ...(raw === undefined ? {} : { payload: raw }),
    });
  }

  async function idOf(email: string): Promise<string> {
    return (await t.database.db.selectFrom('staff').select('id').where('email_key', '=', email.toLowerCase()).executeTakeFirstOrThrow()).id;
  }

  /** The session's second factor passed `minutes` ago: time moved on for this one session. */
  async function age(cookie: string, minutes = FRESH_SECOND_FACTOR_MINUTES + 1): Promise<void> {
    await t.database.db
      .updateTable('staff_sessions')
      .set({ second_factor_at: new Date(Date.now() - minutes * MINUTE).toISOString() })
      .where('id_hash', '=', hashSessionId(cookie))
      .execute();
  }

  /** One delivery pass of the outbox, as main.ts's worker makes it, to the SMTP sink (or to files). */
  async function deliver(smtp = true, outboxDir = ''): Promise<number> {
    const delivery = createMailDelivery({
      db: t.database.db,
      mail: { ...t.config.mail, smtpUrl: smtp ? sink.url : undefined, outboxDir },
      log: { info: (m) => deliveryLog.push(m), warn: (m) => deliveryLog.push(m) },
    });
    try {
      return await delivery.deliverDue();
    } finally {
      delivery.close();
    }
  }

  /** Everything a refusal must leave as it was. */
  async function snapshot() {
    const db = t.database.db;
    return JSON.stringify([
      await db.selectFrom('staff').selectAll().orderBy('id').execute(),
      await db.selectFrom('staff_roles').selectAll().orderBy('staff_id').orderBy('client_id').execute(),
      await db.selectFrom('staff_enrolments').select(['token_hash', 'staff_id']).orderBy('token_hash').execute(),
      (await db.selectFrom('staff_sessions').select('id_hash').orderBy('id_hash').execute()).length,
      await db.selectFrom('mail_outbox').select('id').orderBy('id').execute(),
      await db.selectFrom('audit_log').select('id').orderBy('id').execute(),
    ]);
  }

  /** Every table whose rows (any column) contain `needle`. */
  async function tablesHolding(needle: string): Promise<string[]> {
    const db = t.database.db;
    const names =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
          ).rows.map((r) => r.name);
    const holding: string[] = [];
    for (const name of names) {
      const { rows } = await sql`select * from ${sql.table(name)}`.execute(db);
      if (JSON.stringify(rows).includes(needle)) holding.push(name);
    }
    return holding;
  }

  /** The audit entries about a person, in time order; those of one change (one time) by action, then client (the installation's first). */
  const audits = async (subject: string) =>
    (
      await t.database.db
        .selectFrom('audit_log')
        .select(['at', 'action', 'actor', 'actor_kind', 'client_id', 'origin', 'details'])
        .where('subject', '=', subject)
        .execute()
    )
      .sort((a, b) => a.at.localeCompare(b.at) || a.action.localeCompare(b.action) || (a.client_id ?? '').localeCompare(b.client_id ?? ''))
      .map(({ at: _at, ...e }) => ({ ...e, details: JSON.parse(e.details) as Record<string, unknown> }));

  const invite = (cookie: string, body: unknown) => call('POST', consoleStaffPaths.invitations, cookie, body);

  describe('invitations', () => {
    it('creates the person with the roles and mails the single-use link through the outbox; the link enrols them; nothing keeps or logs the token', async () => {
      logs = '';
      deliveryLog.length = 0;
      const reply = await invite(owner.cookie, {
        email: 'Nina.New@acme.test',
        name: 'Nina New',
        roles: [
          { clientId: 'acme', role: 'support_agent' },
          { clientId: 'globex', role: 'auditor' },
        ],
        reason: 'new hire, ticket 7',
      });
      expect(reply.statusCode).toBe(201);
      const member = reply.json<StaffMember>();
      expect(member).toMatchObject({
        email: 'Nina.New@acme.test',
        name: 'Nina New',
        owner: false,
        status: 'invited',
        secondFactors: [],
        lastSignInAt: null,
        roles: [
          { clientId: 'acme', clientName: 'Acme Rewards', role: 'support_agent' },
          { clientId: 'globex', role: 'auditor' },
        ],
      });
      // The owner never sees the link.
      expect(reply.body).not.toMatch(/enrol#/);

      // Queued in the outbox as a mail of the installation, not of a client.
      const [queued] = await t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'Nina.New@acme.test').execute();
      expect(queued).toMatchObject({ client_id: null, template: 'staffInvitation', status: 'pending' });

      expect(await deliver()).toBeGreaterThanOrEqual(1);
      const mail = sink.received.find((m) => m.to.includes('Nina.New@acme.test'));
      expect(mail).toMatchObject({ subject: 'Your invitation to the Rewards console' });
      expect(mail?.headers.from).toContain('Rewards console');
      expect(mail?.text).toContain('owner@rewards.test has invited you');
      const token = ENROL_LINK.exec(mail?.text ?? '')?.[1] ?? '';
      expect(token).not.toBe('');
      expect(mail?.html).toContain(`/console/enrol#${token}`);

      // The link opens the person's enrolment.
      const view = await t.console('GET', consolePaths.enrolment, { token });
      expect(view.json<EnrolmentView>()).toMatchObject({
        email: 'Nina.New@acme.test',
        step: 'password',
        roles: [
          { clientId: 'acme', role: 'support_agent' },
          { clientId: 'globex', role: 'auditor' },
        ],
      });

      // Delivered: the row keeps who, what and when, no link (decision 042); no table holds the token, no log line.
      const [sent] = await t.database.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('id', '=', queued?.id ?? '')
        .execute();
      expect(sent).toMatchObject({
        status: 'sent',
        params: null,
        text_body: '',
        html_body: '',
        subject: 'Your invitation to the Rewards console',
      });
      expect(await tablesHolding(token)).toEqual([]);
      expect(logs).toContain('"url":"/api/console/v1/staff/invitations"');
      expect(logs).not.toContain(token);
      expect(deliveryLog.join('\n')).not.toContain(token);

      // Audited as the owner, from the request's address, with the reason; each role in its client's trail.
      expect(await audits('Nina.New@acme.test')).toEqual([
        {
          action: 'staff.create',
          actor: 'owner@rewards.test',
          actor_kind: 'staff',
          client_id: null,
          origin: '127.0.0.1',
          details: {
            reason: 'new hire, ticket 7',
            owner: false,
            roles: [
              { clientId: 'acme', role: 'support_agent' },
              { clientId: 'globex', role: 'auditor' },
            ],
            linkBy: 'mail',
          },
        },
        {
          action: 'staff.grant',
          actor: 'owner@rewards.test',
          actor_kind: 'staff',
          client_id: 'acme',
          origin: '127.0.0.1',
          details: { reason: 'new hire, ticket 7', role: 'support_agent' },
        },
        {
          action: 'staff.grant',
          actor: 'owner@rewards.test',
          actor_kind: 'staff',
          client_id: 'globex',
          origin: '127.0.0.1',
          details: { reason: 'new hire, ticket 7', role: 'auditor' },
        },
      ]);
    });

    it('without SMTP writes the .eml and logs no link for a staff mail; `rewards outbox` reads the link back from the file', async () => {
      const outboxDir = mkdtempSync(join(tmpdir(), 'rewards-staff-mail-'));
      try {
        deliveryLog.length = 0;
        expect(
          (
            await invite(owner.cookie, {
              email: 'file@acme.test',
              name: 'File',
              roles: [{ clientId: 'acme', role: 'auditor' }],
              reason: 'demo mode',
            })
          ).statusCode,
        ).toBe(201);
        expect(await deliver(false, outboxDir)).toBe(1);
        expect(readdirSync(outboxDir)).toHaveLength(1);
        const eml = parseEml(readFileSync(join(outboxDir, readdirSync(outboxDir)[0] ?? ''), 'utf8'));
        const token = ENROL_LINK.exec(eml.text)?.[1] ?? '';
        expect(token).not.toBe('');
        expect(deliveryLog).toEqual([
          expect.stringMatching(/^mail staffInvitation to file@acme\.test: Your invitation to the Rewards console \(written to /),
        ]);
        const [listed] = await listOutbox(t.database.db, { limit: 1 });
        expect(listed).toMatchObject({ to: 'file@acme.test', template: 'staffInvitation', status: 'sent' });
        expect(listed?.links[0]).toBe(`http://console.localhost:3000/console/enrol#${token}`);
      } finally {
        rmSync(outboxDir, { recursive: true, force: true });
      }
    });

    it('an address already on staff (in any case) is 409 and changes nothing', async () => {
      const before = await snapshot();
      const reply = await invite(owner.cookie, {
        email: ' OWNER@Rewards.test ',
        name: 'Again',
        owner: true,
        roles: [],
        reason: 'a second account',
      });
      expect([reply.statusCode, codeOf(reply)]).toEqual([409, ErrorCode.staffAlreadyExists]);
      expect(await snapshot()).toBe(before);
    });

    it('bad input is 400, never 500, and changes nothing', async () => {
      const before = await snapshot();
      const good = { email: 'bad@acme.test', name: 'Bad', roles: [{ clientId: 'acme', role: 'auditor' }], reason: 'testing input' };
      const cases: unknown[] = [
        {},
        { ...good, reason: undefined },
        { ...good, reason: '  x ' },
        { ...good, reason: 'r'.repeat(501) },
        { ...good, email: 'not-an-address' },
        { ...good, email: 'a@b'.padEnd(400, 'c') },
        { ...good, name: '' },
        { ...good, roles: [{ clientId: 'nowhere', role: 'auditor' }] },
        { ...good, roles: [{ clientId: 'acme', role: 'boss' }] },
        {
          ...good,
          roles: [
            { clientId: 'acme', role: 'auditor' },
            { clientId: 'acme', role: 'support_agent' },
          ],
        },
        { ...good, roles: [] },
        { ...good, roles: 'acme' },
        { ...good, owner: 'yes' },
        { ...good, roles: Array.from({ length: 201 }, () => ({ clientId: 'acme', role: 'auditor' })) },
        [],
        null,
      ];
      for (const body of cases) {
        const reply = await invite(owner.cookie, body);
        expect([JSON.stringify(body).slice(0, 80), reply.statusCode]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      }
      for (const raw of ['{', 'not json', '{"email": 1}'])
        expect((await call('POST', consoleStaffPaths.invitations, owner.cookie, undefined, raw)).statusCode).toBe(400);
      expect(await snapshot()).toBe(before);
    });
  });

  describe('the list', () => {
    it('shows every member: invited, active or disabled, roles, second factors, last sign-in', async () => {
      const active = await enrolStaff(t, 'listed-active@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
      await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
        email: 'listed-invited@acme.test',
        name: 'Invited',
        owner: false,
        roles: [{ clientId: 'globex', role: 'auditor' }],
      });
      const gone = await enrolStaff(t, 'listed-disabled@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      expect((await call('POST', consoleStaffPaths.disable(await idOf(gone.email)), owner.cookie, { reason: 'left' })).statusCode).toBe(
        200,
      );
      const reply = await call('GET', consoleStaffPaths.staff, owner.cookie);
      expect(reply.statusCode).toBe(200);
      const list = reply.json<StaffMember[]>();
      const byEmail = (email: string) => list.find((m) => m.email === email);
      expect(byEmail(active.email)).toMatchObject({
        status: 'active',
        owner: false,
        roles: [{ clientId: 'acme', role: 'program_manager' }],
        secondFactors: ['totp', 'recoveryCode'],
        lastSignInAt: expect.any(String),
      });
      expect(byEmail('listed-invited@acme.test')).toMatchObject({ status: 'invited', secondFactors: [], lastSignInAt: null });
      expect(byEmail(gone.email)).toMatchObject({ status: 'disabled' });
      expect(byEmail(owner.email)).toMatchObject({ id: ownerId, owner: true, status: 'active' });
      // One member, by id; an unknown id is 404.
      expect((await call('GET', consoleStaffPaths.member(ownerId), owner.cookie)).json<StaffMember>()).toEqual(byEmail(owner.email));
      expect((await call('GET', consoleStaffPaths.member('no-such-id'), owner.cookie)).statusCode).toBe(404);
      // Nothing secret in it.
      expect(reply.body).not.toMatch(/password|secret|hash|token/i);
    });
  });

  describe('changes need a fresh second factor, and step-up gives one', () => {
    it('refuses every change with a stale factor (403, its own code) and changes nothing; a TOTP step-up makes it fresh for five minutes', async () => {
      const session = await signInOwner();
      const target = await idOf((await enrolStaff(t, 'stale-target@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] })).email);
      await age(session);
      const before = await snapshot();
      const changes: Array<[HTTPMethods, string, unknown]> = [
        [
          'POST',
          consoleStaffPaths.invitations,
          { email: 'later@acme.test', name: 'Later', roles: [{ clientId: 'acme', role: 'auditor' }], reason: 'needs step-up' },
        ],
        ['PUT', consoleStaffPaths.roles(target), { roles: [{ clientId: 'acme', role: 'support_agent' }], reason: 'needs step-up' }],
        ['POST', consoleStaffPaths.disable(target), { reason: 'needs step-up' }],
        ['POST', consoleStaffPaths.enable(target), { reason: 'needs step-up' }],
        ['POST', consoleStaffPaths.reset(target), { reason: 'needs step-up' }],
      ];
      for (const [method, path, body] of changes) {
        const reply = await call(method, path, session, body);
        expect([path, reply.statusCode, codeOf(reply)]).toEqual([path, 403, ErrorCode.staffFreshSecondFactorRequired]);
      }
      // Reading needs no step-up.
      expect((await call('GET', consoleStaffPaths.staff, session)).statusCode).toBe(200);
      expect(await snapshot()).toBe(before);

      const stepUp = await call('POST', consoleStaffPaths.stepUpTotp, session, { code: await freshCode(t, owner.email, owner.secret) });
      expect(stepUp.statusCode).toBe(200);
      const { freshUntil } = stepUp.json<StepUpReply>();
      expect(Math.abs(Date.parse(freshUntil) - Date.now() - FRESH_SECOND_FACTOR_MINUTES * MINUTE)).toBeLessThan(MINUTE);
      expect(
        (
          await call('PUT', consoleStaffPaths.roles(target), session, {
            roles: [{ clientId: 'acme', role: 'support_agent' }],
            reason: 'after step-up',
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses a wrong code (401) and a code already used (replay), and does not renew the factor', async () => {
      const session = await signInOwner();
      await age(session);
      const wrong = await call('POST', consoleStaffPaths.stepUpTotp, session, { code: '000000' });
      expect([wrong.statusCode, codeOf(wrong)]).toEqual([401, ErrorCode.staffSecondFactorFailed]);
      const code = await freshCode(t, owner.email, owner.secret);
      expect((await call('POST', consoleStaffPaths.stepUpTotp, session, { code })).statusCode).toBe(200);
      await age(session);
      const replay = await call('POST', consoleStaffPaths.stepUpTotp, session, { code });
      expect([replay.statusCode, codeOf(replay)]).toEqual([401, ErrorCode.staffSecondFactorFailed]);
      expect((await call('POST', consoleStaffPaths.enable(ownerId), session, { reason: 'still stale' })).statusCode).toBe(403);
      // Bad input is 400.
      for (const body of [{}, { code: '' }, { code: 'x'.repeat(65) }, { code: 123456 }])
        expect((await call('POST', consoleStaffPaths.stepUpTotp, session, body)).statusCode).toBe(400);
    });

    it('takes each recovery code once', async () => {
      const session = await signInOwner();
      await age(session);
      const [code] = owner.recoveryCodes.splice(0, 1);
      expect((await call('POST', consoleStaffPaths.stepUpRecoveryCode, session, { code })).statusCode).toBe(200);
      await age(session);
      expect((await call('POST', consoleStaffPaths.stepUpRecoveryCode, session, { code })).statusCode).toBe(401);
    });

    it('steps up with a passkey: options, then the answer; the same answer again is refused; no passkey, no options (409)', async () => {
      const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
        email: 'pia-owner@rewards.test',
        name: 'Pia',
        owner: true,
        roles: [],
      });
      const token = tokenOf(enrolment.url);
      await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } });
      const authenticator = new TestAuthenticator('console.localhost', t.config.console.origin);
      const creation = (await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token })).json<{ challenge: string }>();
      const enrolled = await t.console('POST', consolePaths.enrolmentPasskey, {
        token,
        body: { credential: authenticator.register(creation) },
      });
      const session = consoleCookieOf(enrolled) ?? '';
      await age(session);

      const options = await call('POST', consoleStaffPaths.stepUpPasskeyOptions, session);
      expect(options.statusCode).toBe(200);
      const answer = authenticator.authenticate(options.json<{ challenge: string }>());
      expect((await call('POST', consoleStaffPaths.stepUpPasskey, session, { credential: answer })).statusCode).toBe(200);
      await age(session);
      expect((await call('POST', consoleStaffPaths.stepUpPasskey, session, { credential: answer })).statusCode).toBe(401);
      expect((await call('POST', consoleStaffPaths.enable(ownerId), session, { reason: 'stale again' })).statusCode).toBe(403);

      const noPasskey = await call('POST', consoleStaffPaths.stepUpPasskeyOptions, owner.cookie);
      expect([noPasskey.statusCode, codeOf(noPasskey)]).toEqual([409, ErrorCode.staffNoPasskey]);
    });

    it('a half session cannot step up (401)', async () => {
      const half =
        consoleCookieOf(await t.console('POST', consolePaths.signIn, { body: { email: owner.email, password: STAFF_PASSWORD } })) ?? '';
      expect(
        (await call('POST', consoleStaffPaths.stepUpTotp, half, { code: await freshCode(t, owner.email, owner.secret) })).statusCode,
      ).toBe(401);
    });

    it('100 wrong codes at once get 5 checked (the sign-in limit); the right code after them gets 429 and the factor stays stale', async () => {
      const session = await signInOwner();
      await age(session);
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) => call('POST', consoleStaffPaths.stepUpTotp, session, { code: String(100_000 + i) })),
      );
      const tally: Record<number, number> = {};
      for (const r of replies) tally[r.statusCode] = (tally[r.statusCode] ?? 0) + 1;
      expect(tally).toEqual({ 401: 5, 429: 95 });
      const right = await call('POST', consoleStaffPaths.stepUpTotp, session, { code: await freshCode(t, owner.email, owner.secret) });
      expect([right.statusCode, codeOf(right)]).toEqual([429, ErrorCode.staffThrottled]);
      expect((await call('POST', consoleStaffPaths.enable(ownerId), session, { reason: 'stale' })).statusCode).toBe(403);
      // The same limit as the sign-in's second step: it is locked too.
      const half =
        consoleCookieOf(await t.console('POST', consolePaths.signIn, { body: { email: owner.email, password: STAFF_PASSWORD } })) ?? '';
      expect(
        (await t.console('POST', consolePaths.signInTotp, { cookie: half, body: { code: await freshCode(t, owner.email, owner.secret) } }))
          .statusCode,
      ).toBe(429);
    });
  });

  describe('roles, disable, enable, reset', () => {
    it('replaces the roles as a whole, audited per client; the owner flag if given; nothing changed, nothing written', async () => {
      const person = await enrolStaff(t, 'roles@acme.test', {
        roles: [
          { clientId: 'acme', role: 'auditor' },
          { clientId: 'globex', role: 'auditor' },
        ],
      });
      const id = await idOf(person.email);
      const reply = await call('PUT', consoleStaffPaths.roles(id), owner.cookie, {
        roles: [
          { clientId: 'acme', role: 'program_manager' },
          { clientId: 'nimbus', role: 'support_agent' },
        ],
        reason: 'runs acme now',
      });
      expect(reply.statusCode).toBe(200);
      expect(reply.json<StaffMember>().roles.map((r) => `${r.clientId}:${r.role}`)).toEqual([
        'acme:program_manager',
        'nimbus:support_agent',
      ]);
      const changes = (await audits(person.email)).filter((e) => e.actor === owner.email);
      expect(changes.map((e) => [e.action, e.client_id, e.details])).toEqual(
        expect.arrayContaining([
          ['staff.grant', 'acme', { reason: 'runs acme now', role: 'program_manager', replaces: 'auditor' }],
          ['staff.grant', 'nimbus', { reason: 'runs acme now', role: 'support_agent' }],
          ['staff.revoke', 'globex', { reason: 'runs acme now', role: 'auditor' }],
        ]),
      );
      expect(changes).toHaveLength(3);
      // The person's new role takes effect at their next request.
      expect((await t.console('GET', consolePaths.client('globex'), { cookie: person.cookie })).statusCode).toBe(403);
      expect((await t.console('GET', consolePaths.client('nimbus'), { cookie: person.cookie })).statusCode).toBe(200);

      const before = await snapshot();
      expect(
        (
          await call('PUT', consoleStaffPaths.roles(id), owner.cookie, {
            roles: [
              { clientId: 'nimbus', role: 'support_agent' },
              { clientId: 'acme', role: 'program_manager' },
            ],
            reason: 'same again',
          })
        ).statusCode,
      ).toBe(200);
      expect(await snapshot()).toBe(before);
      for (const body of [
        { roles: [], reason: 'take all' },
        { roles: [{ clientId: 'nowhere', role: 'auditor' }], reason: 'bad client' },
        { roles: [{ clientId: 'acme', role: 'auditor' }] },
        { roles: [{ clientId: 'acme', role: 'auditor' }], reason: 'x', owner: 'no' },
      ]) {
        expect((await call('PUT', consoleStaffPaths.roles(id), owner.cookie, body)).statusCode).toBe(400);
      }
      expect(
        (
          await call('PUT', consoleStaffPaths.roles('no-such-id'), owner.cookie, {
            roles: [{ clientId: 'acme', role: 'auditor' }],
            reason: 'nobody',
          })
        ).statusCode,
      ).toBe(404);
      expect(await snapshot()).toBe(before);

      const promoted = await call('PUT', consoleStaffPaths.roles(id), owner.cookie, {
        roles: [],
        owner: true,
        reason: 'cover for the owner',
      });
      expect(promoted.json<StaffMember>()).toMatchObject({ owner: true, roles: [] });
      expect(
        (await audits(person.email))
          .filter((e) => e.details.reason === 'cover for the owner')
          .map((e) => [e.action, e.client_id, e.details]),
      ).toEqual([
        ['staff.grant', null, { reason: 'cover for the owner', owner: true }],
        ['staff.revoke', 'acme', { reason: 'cover for the owner', role: 'program_manager' }],
        ['staff.revoke', 'nimbus', { reason: 'cover for the owner', role: 'support_agent' }],
      ]);
      expect(
        (
          await call('PUT', consoleStaffPaths.roles(id), owner.cookie, {
            roles: [{ clientId: 'acme', role: 'auditor' }],
            owner: false,
            reason: 'cover ended',
          })
        ).json<StaffMember>(),
      ).toMatchObject({ owner: false });
    });

    it("disable ends the person's sessions at once; enable lets them in again; both audited as the owner", async () => {
      const person = await enrolStaff(t, 'leaver@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] });
      const id = await idOf(person.email);
      expect((await t.console('GET', consolePaths.me, { cookie: person.cookie })).statusCode).toBe(200);
      const disabled = await call('POST', consoleStaffPaths.disable(id), owner.cookie, { reason: 'left the company' });
      expect(disabled.json<StaffMember>().status).toBe('disabled');
      expect((await t.console('GET', consolePaths.me, { cookie: person.cookie })).statusCode).toBe(401);
      expect(await t.database.db.selectFrom('staff_sessions').select('id_hash').where('staff_id', '=', id).execute()).toEqual([]);
      expect((await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } })).statusCode).toBe(
        403,
      );

      expect((await call('POST', consoleStaffPaths.enable(id), owner.cookie, { reason: 'came back' })).json<StaffMember>().status).toBe(
        'active',
      );
      expect((await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } })).statusCode).toBe(
        200,
      );
      expect((await audits(person.email)).filter((e) => e.actor === owner.email)).toEqual([
        {
          action: 'staff.disable',
          actor: owner.email,
          actor_kind: 'staff',
          client_id: null,
          origin: '127.0.0.1',
          details: { reason: 'left the company', sessionsEnded: 1 },
        },
        {
          action: 'staff.enable',
          actor: owner.email,
          actor_kind: 'staff',
          client_id: null,
          origin: '127.0.0.1',
          details: { reason: 'came back' },
        },
      ]);
      for (const body of [{}, { reason: 'no' }, { reason: 5 }])
        expect((await call('POST', consoleStaffPaths.disable(id), owner.cookie, body)).statusCode).toBe(400);
      expect((await call('POST', consoleStaffPaths.disable('x'.repeat(65)), owner.cookie, { reason: 'too long an id' })).statusCode).toBe(
        400,
      );
    });

    it('reset voids password and factors, ends the sessions and mails a new link that enrols the person again', async () => {
      const person = await enrolStaff(t, 'phone-lost@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      const id = await idOf(person.email);
      const reply = await call('POST', consoleStaffPaths.reset(id), owner.cookie, { reason: 'lost the phone' });
      expect(reply.json<StaffMember>()).toMatchObject({ status: 'invited', secondFactors: [] });
      expect(reply.body).not.toMatch(/enrol#/);
      expect((await t.console('GET', consolePaths.me, { cookie: person.cookie })).statusCode).toBe(401);
      expect((await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } })).statusCode).toBe(
        401,
      );

      await deliver();
      const mail = sink.received.find((m) => m.to.includes(person.email));
      expect(mail?.subject).toBe('Set up your Rewards console account again');
      const token = ENROL_LINK.exec(mail?.text ?? '')?.[1] ?? '';
      expect((await t.console('GET', consolePaths.enrolment, { token })).json<EnrolmentView>()).toMatchObject({
        email: person.email,
        step: 'password',
      });
      expect(await tablesHolding(token)).toEqual([]);
      expect((await audits(person.email)).at(-1)).toMatchObject({
        action: 'staff.reset',
        actor: owner.email,
        actor_kind: 'staff',
        client_id: null,
        details: { reason: 'lost the phone', sessionsEnded: 1, linkBy: 'mail' },
      });
    });
  });

  describe('guard rails', () => {
    it('an owner cannot disable or reset themselves nor take away their own owner flag; the last active owner cannot be disabled or lose the flag', async () => {
      const before = await snapshot();
      const self: Array<[HTTPMethods, string, unknown]> = [
        ['POST', consoleStaffPaths.disable(ownerId), { reason: 'myself' }],
        ['POST', consoleStaffPaths.reset(ownerId), { reason: 'myself' }],
        ['PUT', consoleStaffPaths.roles(ownerId), { roles: [{ clientId: 'acme', role: 'auditor' }], owner: false, reason: 'myself' }],
      ];
      for (const [method, path, body] of self) {
        const reply = await call(method, path, owner.cookie, body);
        expect([path, reply.statusCode, codeOf(reply)]).toEqual([path, 409, ErrorCode.staffOwnAccount]);
      }
      expect(await snapshot()).toBe(before);
      // The operator (the command line) is no owner: the last active owner rule is what stops it.
      const { disableStaff } = await import('./accounts.ts');
      const owners = await t.database.db
        .selectFrom('staff')
        .select(['id', 'email'])
        .where('owner', '=', 1)
        .where('status', '=', 'active')
        .where('enrolled_at', 'is not', null)
        .execute();
      for (const other of owners.filter((o) => o.id !== ownerId)) await disableStaff(t.database.db, TEST_ACTOR, other.email);
      await expect(disableStaff(t.database.db, TEST_ACTOR, owner.email)).rejects.toMatchObject({
        statusCode: 409,
        errorCode: ErrorCode.staffLastOwner,
      });
    });

    it('two owners disabling each other at once: one wins, one active owner is left', async () => {
      const a = await enrolStaff(t, 'owner-a@rewards.test', { owner: true });
      const b = await enrolStaff(t, 'owner-b@rewards.test', { owner: true });
      const [idA, idB] = [await idOf(a.email), await idOf(b.email)];
      // Only these two are active owners.
      await t.database.db
        .updateTable('staff')
        .set({ status: 'disabled' })
        .where('owner', '=', 1)
        .where('id', 'not in', [idA, idB])
        .execute();
      const replies = await Promise.all([
        call('POST', consoleStaffPaths.disable(idB), a.cookie, { reason: 'duel' }),
        call('POST', consoleStaffPaths.disable(idA), b.cookie, { reason: 'duel' }),
      ]);
      expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
      for (const r of replies.filter((r) => r.statusCode !== 200)) expect([401, 409]).toContain(r.statusCode);
      const left = await t.database.db.selectFrom('staff').select('id').where('owner', '=', 1).where('status', '=', 'active').execute();
      expect(left).toHaveLength(1);
      // The rest of this file's owner is back.
      await t.database.db.updateTable('staff').set({ status: 'active' }).where('id', '=', ownerId).execute();
    });
  });

  /** A new full session of the file's owner (password, then a code). */
  async function signInOwner(): Promise<string> {
    const half = consoleCookieOf(await t.console('POST', consolePaths.signIn, { body: { email: owner.email, password: STAFF_PASSWORD } }));
    const full = await t.console('POST', consolePaths.signInTotp, {
      cookie: half,
      body: { code: await freshCode(t, owner.email, owner.secret) },
    });
    if (full.statusCode !== 200) throw new Error(`sign-in: ${full.statusCode} ${full.body}`);
    return consoleCookieOf(full) ?? '';
  }
});
