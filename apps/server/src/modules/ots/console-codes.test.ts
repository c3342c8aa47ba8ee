import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { consoleCodesPaths as paths, type BatchDetail, type BatchList, type VoidCodesReply } from '@rewards/contract/console-codes';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { OTS_ALPHABET } from './code.ts';

const ACME = 'acme';
const REASON = 'Trade show, stand 12';
const CODE = new RegExp(`^[${OTS_ALPHABET}]{4}(-[${OTS_ALPHABET}]{4}){3}$`);

/** The codes of a generate reply's CSV (header code,value,expires_at,batch). */
function codesOf(csv: string): string[] {
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  expect(header).toBe('code,value,expires_at,batch');
  return lines.map((line) => line.split(',')[0]!);
}

/** The console's code batches (issue 20 §1, docs/decisions/063) through the API, on both engines. */
describe.each(dialects)("the console's code batches on %s", (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const generate = (who: EnrolledStaff, body: Record<string, unknown>, clientId = ACME) =>
    t.console('POST', paths.batches(clientId), { cookie: who.cookie, body: { count: 3, value: 250, reason: REASON, ...body } });
  const list = async (who: EnrolledStaff, clientId = ACME) => {
    const reply = await t.console('GET', paths.batches(clientId), { cookie: who.cookie });
    expect(reply.statusCode).toBe(200);
    return reply.json<BatchList>().batches;
  };
  const codeRows = (batch: string) =>
    t.database.db.selectFrom('ots_codes').selectAll().where('client_id', '=', ACME).where('batch', '=', batch).execute();
  const audits = (action: string, subject?: string) => {
    let query = t.database.db.selectFrom('audit_log').select(['actor', 'subject', 'details', 'origin']).where('action', '=', action);
    if (subject !== undefined) query = query.where('subject', '=', subject);
    return query.execute();
  };
  const redeem = async (code: string) => {
    const demo = await t.login('demo');
    return t.api('POST', '/ots/redeem', { session: demo.sessionId, body: { code, userName: 'demo' } });
  };

  it('generates a batch whose codes leave once, as CSV; the server keeps hashes; a participant redeems one; the list counts it', async () => {
    const reply = await generate(manager, { name: 'Spring fair', count: 5, value: 300, expires: '2099-12-31' });
    expect(reply.statusCode).toBe(201);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe('attachment; filename="codes-Spring-fair.csv"');
    expect(reply.headers['cache-control']).toBe('no-store');
    const codes = codesOf(reply.body);
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(reply.body).toContain(',300,2099-12-31T23:59:59.999Z,Spring fair');

    // Only hashes and hints are kept: no code, nor its first half, anywhere in its rows or the audit.
    const stored = await codeRows('Spring fair');
    expect(stored).toHaveLength(5);
    const audit = await audits('codes.generate', 'Spring fair');
    for (const code of codes) {
      const secret = code.replaceAll('-', '').slice(0, 8);
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(JSON.stringify(audit)).not.toContain(secret);
    }
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor).toBe('manager@acme.test');
    expect(JSON.parse(audit[0]!.details)).toEqual({ count: 5, value: 300, expiresAt: '2099-12-31T23:59:59.999Z', reason: REASON });

    expect((await redeem(codes[0]!)).statusCode).toBe(200);
    for (const who of [owner, manager, agent, auditor]) {
      const batches = await list(who);
      expect(batches[0]).toEqual({
        name: 'Spring fair',
        createdAt: expect.any(String),
        value: 300,
        expiresAt: '2099-12-31T23:59:59.999Z',
        total: 5,
        unused: 4,
        redeemed: 1,
        expired: 0,
        void: 0,
      });
    }
    const detail = await t.console('GET', paths.batch(ACME, 'Spring fair'), { cookie: auditor.cookie });
    expect(detail.statusCode).toBe(200);
    const body = detail.json<BatchDetail>();
    expect(body).toMatchObject({ name: 'Spring fair', total: 5, redeemed: 1, matched: 5 });
    expect(body.codes.find((c) => c.state === 'redeemed')).toMatchObject({ hint: codes[0]!.slice(-4), redeemedBy: 'demo' });
    const narrowed = await t.console('GET', `${paths.batch(ACME, 'Spring fair')}?hint=${codes[1]!.slice(-4).toLowerCase()}`, {
      cookie: auditor.cookie,
    });
    expect(narrowed.json<BatchDetail>().codes.map((c) => c.hint)).toContain(codes[1]!.slice(-4));
    expect((await t.console('GET', paths.batch(ACME, 'no such batch'), { cookie: auditor.cookie })).statusCode).toBe(404);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('lists newest first, with the demo batch among them and nothing of another client', async () => {
    await generate(manager, { name: 'Newest' });
    const names = (await list(manager)).map((b) => b.name);
    expect(names[0]).toBe('Newest');
    expect(names).toContain('Demo 2026');
    expect(names.indexOf('Spring fair')).toBeLessThan(names.indexOf('Demo 2026'));
    expect((await list(owner, OTHER_CLIENT_ID)).map((b) => b.name)).not.toContain('Newest');
  });

  it('refuses a name the client has already (its own or the seed’s), and bad values, with a 400 or 409 and nothing written', async () => {
    const before = await t.database.db
      .selectFrom('ots_codes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    const taken = await generate(manager, { name: 'Spring fair' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errorCode: ErrorCode.codesBatchNameTaken, message: expect.stringContaining('exists already') });
    expect((await generate(manager, { name: 'Demo 2026' })).statusCode).toBe(409);
    // The same name in another client is another batch.
    expect((await generate(owner, { name: 'Spring fair' }, OTHER_CLIENT_ID)).statusCode).toBe(201);

    const bad = [
      { name: 'zero', count: 0 },
      { name: 'too many', count: 100_001 },
      { name: 'no value', value: 0 },
      { name: 'fraction', value: 1.5 },
      { name: 'past', expires: '2020-01-01' },
      { name: 'not a date', expires: '31/12/2099' },
      { name: 'no such day', expires: '2099-02-30' },
      { name: '=HYPERLINK("x")' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'no reason', reason: 'x' },
    ];
    for (const body of bad) {
      const reply = await generate(manager, body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.body).not.toMatch(/select|insert|stack/i);
    }
    const after = await t.database.db
      .selectFrom('ots_codes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n) + 3);
    expect(await audits('codes.generate', 'zero')).toEqual([]);
  });

  it('lets program managers and owners generate and void, and no one else; another client’s only an owner', async () => {
    for (const who of [agent, auditor]) {
      expect((await generate(who, { name: `by ${who.email}` })).statusCode).toBe(403);
      expect((await t.console('POST', paths.voidCodes(ACME, 'Newest'), { cookie: who.cookie, body: { reason: REASON } })).statusCode).toBe(
        403,
      );
    }
    expect((await generate(manager, { name: 'elsewhere' }, OTHER_CLIENT_ID)).statusCode).toBe(403);
    expect((await list(owner)).length).toBeGreaterThan(0);
    expect(await audits('codes.generate', 'by agent@acme.test')).toEqual([]);
  });

  it('asks a fresh second factor to generate: a stale one gets 403 (92009) and nothing is minted', async () => {
    const stale = new Date(Date.now() - 60 * 60_000).toISOString();
    await t.database.db.updateTable('staff_sessions').set({ second_factor_at: stale }).execute();
    try {
      const reply = await generate(manager, { name: 'Stale factor' });
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
      expect(await codeRows('Stale factor')).toEqual([]);
      // Reading and voiding need no step-up.
      expect((await list(manager)).length).toBeGreaterThan(0);
    } finally {
      await t.database.db.updateTable('staff_sessions').set({ second_factor_at: new Date().toISOString() }).execute();
    }
  });

  it('voids one code by its hint and then the rest of the batch, with a reason; a redeemed code stays; nothing left says so', async () => {
    const codes = codesOf((await generate(manager, { name: 'To void', count: 4, value: 50 })).body);
    expect((await redeem(codes[0]!)).statusCode).toBe(200);
    const voidOne = (body: Record<string, unknown>) =>
      t.console('POST', paths.voidCodes(ACME, 'To void'), { cookie: manager.cookie, body: { reason: 'Card lost at the stand', ...body } });

    const redeemedOne = await voidOne({ hint: codes[0]!.slice(-4) });
    expect(redeemedOne.statusCode).toBe(400);
    expect(redeemedOne.json()).toMatchObject({ message: expect.stringContaining('was redeemed already') });

    const one = await voidOne({ hint: codes[1]!.slice(-4).toLowerCase() });
    expect(one.statusCode).toBe(200);
    expect(one.json<VoidCodesReply>()).toMatchObject({
      subject: `To void …${codes[1]!.slice(-4)}`,
      voided: 1,
      auditId: expect.any(String),
    });
    expect((await redeem(codes[1]!)).statusCode).toBe(410);

    const rest = await voidOne({});
    expect(rest.json<VoidCodesReply>()).toMatchObject({ subject: 'To void', voided: 2 });
    const nothing = await voidOne({});
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json<VoidCodesReply>()).toEqual({ subject: 'To void', voided: 0, expired: 0, auditId: null });

    expect((await list(auditor)).find((b) => b.name === 'To void')).toMatchObject({ total: 4, unused: 0, redeemed: 1, void: 3 });
    const entries = await audits('codes.void');
    expect(entries.map((e) => [e.subject, JSON.parse(e.details)])).toEqual(
      expect.arrayContaining([
        [`To void …${codes[1]!.slice(-4)}`, { voided: 1, reason: 'Card lost at the stand' }],
        ['To void', { voided: 2, reason: 'Card lost at the stand' }],
      ]),
    );
    expect(entries.filter((e) => e.subject === 'To void')).toHaveLength(1);

    expect((await voidOne({ reason: '' })).statusCode).toBe(400);
    expect(
      (await t.console('POST', paths.voidCodes(ACME, 'nothing here'), { cookie: manager.cookie, body: { reason: REASON } })).statusCode,
    ).toBe(400);
  });

  it('stores exactly one of 100 generates of one name at once; the others are refused with 409', async () => {
    const replies = await Promise.all(Array.from({ length: 100 }, () => generate(manager, { name: 'Burst', count: 2, value: 10 })));
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    expect(await codeRows('Burst')).toHaveLength(2);
    expect(await audits('codes.generate', 'Burst')).toHaveLength(1);
    const claims = await t.database.db
      .selectFrom('ots_batches')
      .selectAll()
      .where('client_id', '=', ACME)
      .where('name', '=', 'Burst')
      .execute();
    expect(claims).toHaveLength(1);
  }, 60_000);
});
