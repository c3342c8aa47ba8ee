import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleReportPaths as paths,
  type ClientsComparison,
  type CodesReport,
  type OrdersReport,
  type ParticipantsReport,
  type PointsReport,
} from '@rewards/contract/console-reports';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { DEMO_CATALOG_PARTNER_ID } from '../../db/seed/demo-catalog.ts';
import { DEMO_OTS_CODES } from '../../db/seed/demo-ots.ts';
import { debitForOrder } from '../catalog/partner-service.ts';
import { appendLedgerEntry } from '../ledger/service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { foldReports, lastMonths, SETTLE_MS } from './service.ts';

const ACME = 'acme';
const DAY = 86_400_000;

/** The console's reports (issue 20, section 5, docs/decisions/067) through the API, on both engines. */
describe.each(dialects)('the console reports on %s', (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const get = <T>(who: EnrolledStaff, path: string) =>
    t.console('GET', path, { cookie: who.cookie }).then((reply) => {
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<T>();
    });
  const db = () => t.database.db;
  const participantId = async (username: string, clientId = ACME) =>
    (
      await db()
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', clientId)
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
  /** The liability now, from the balances: what the points report's last figure must equal. */
  const balances = async (clientId = ACME) =>
    Number(
      (
        await db()
          .selectFrom('participants')
          .select(sql<string>`coalesce(sum(balance), 0)`.as('sum'))
          .where('client_id', '=', clientId)
          .executeTakeFirstOrThrow()
      ).sum,
    );
  /** Per month, straight from the ledger: the report's figures computed another way. */
  const ledgerByMonth = async (clientId = ACME) => {
    const rows = await db()
      .selectFrom('ledger_entries')
      .select(['occurred_at', 'amount', 'kind'])
      .where('client_id', '=', clientId)
      .execute();
    const months = new Map<string, { issued: number; redeemed: number; expired: number; adjusted: number }>();
    for (const row of rows) {
      const month = months.get(row.occurred_at.slice(0, 7)) ?? { issued: 0, redeemed: 0, expired: 0, adjusted: 0 };
      const amount = Number(row.amount);
      if (amount > 0) month.issued += amount;
      else if (row.kind === 'redemption') month.redeemed -= amount;
      else if (row.kind === 'expiry') month.expired -= amount;
      else month.adjusted -= amount;
      months.set(row.occurred_at.slice(0, 7), month);
    }
    return months;
  };
  const post = (clientId: string, participant: string, amount: number, occurredAt: string, kind: 'award' | 'adjustment' = 'award') =>
    db()
      .transaction()
      .execute((trx) =>
        appendLedgerEntry(trx, { clientId, participantId: participant, occurredAt, description: 'report test', amount, kind }),
      );

  it('gives every month of the points, each liability the one before plus its movements, the last the sum of the balances', async () => {
    const report = await get<PointsReport>(auditor, `${paths.points(ACME)}?months=48`);
    expect(report.months).toHaveLength(48);
    expect(report.months.map((m) => m.month)).toEqual(lastMonths(new Date(report.at), 48));
    const expected = await ledgerByMonth();
    let outstanding = 0;
    for (const month of report.months) {
      const want = expected.get(month.month) ?? { issued: 0, redeemed: 0, expired: 0, adjusted: 0 };
      expect(month).toMatchObject(want);
      outstanding += want.issued - want.redeemed - want.expired - want.adjusted;
      expect(month.outstanding).toBe(outstanding);
    }
    // Bigspender's three years of awards and catalog orders are in it.
    expect(report.months.filter((m) => m.issued > 0 && m.redeemed > 0).length).toBeGreaterThanOrEqual(30);
    expect(report.outstanding).toBe(await balances());
    expect(report.months.at(-1)!.outstanding).toBe(report.outstanding);
    // A year by default: its first liability carries the years before it.
    const year = await get<PointsReport>(agent, paths.points(ACME));
    expect(year.months).toEqual(report.months.slice(-12));
  });

  it('folds closed spans once, counts what was written since live, and takes an entry dated in a closed month', async () => {
    const before = await get<PointsReport>(owner, `${paths.points(ACME)}?months=24`);
    // Fold everything written so far: as the fold would at SETTLE_MS from now. (A later "now" would put the watermark
    // after rows this test writes next, which is what the settling time rules out in a real run.)
    const later = new Date(Date.now() + SETTLE_MS);
    await foldReports(db(), ACME, later, { always: true });
    const watermark = await db().selectFrom('report_watermarks').select('through').where('client_id', '=', ACME).executeTakeFirstOrThrow();
    expect(watermark.through).toBe(new Date(later.getTime() - SETTLE_MS).toISOString());
    const folded = await get<PointsReport>(owner, `${paths.points(ACME)}?months=24`);
    expect(folded.months).toEqual(before.months);

    // An import dated five months back, written now (after the watermark): live, then in its month, once.
    const bea = await participantId('bigspender');
    const fiveBack = lastMonths(new Date(), 6)[0]!;
    await post(ACME, bea, 1234, `${fiveBack}-15T12:00:00.000Z`);
    await post(ACME, bea, -34, `${fiveBack}-16T12:00:00.000Z`, 'adjustment');
    const live = await get<PointsReport>(owner, `${paths.points(ACME)}?months=24`);
    const month = (r: PointsReport) => r.months.find((m) => m.month === fiveBack)!;
    expect(month(live).issued).toBe(month(before).issued + 1234);
    expect(month(live).adjusted).toBe(month(before).adjusted + 34);
    expect(live.months.at(-1)!.outstanding).toBe(before.months.at(-1)!.outstanding + 1200);
    expect(live.outstanding).toBe(await balances());

    await foldReports(db(), ACME, new Date(Date.now() + SETTLE_MS), { always: true });
    expect((await get<PointsReport>(owner, `${paths.points(ACME)}?months=24`)).months).toEqual(live.months);
    const rows = await db()
      .selectFrom('report_ledger_months')
      .selectAll()
      .where('client_id', '=', ACME)
      .where('month', '=', fiveBack)
      .execute();
    expect(rows.reduce((sum, r) => sum + Number(r.credits), 0)).toBe(month(live).issued);
  });

  it('folds a span once when a hundred reports ask at the same time', async () => {
    const gwen = await participantId('demo', OTHER_CLIENT_ID);
    await post(OTHER_CLIENT_ID, gwen, 700, new Date().toISOString());
    const at = new Date(Date.now() + SETTLE_MS);
    const folds = await Promise.all(Array.from({ length: 100 }, () => foldReports(db(), OTHER_CLIENT_ID, at, { always: true })));
    expect(folds.filter(Boolean)).toHaveLength(1);
    const report = await get<PointsReport>(owner, paths.points(OTHER_CLIENT_ID));
    expect(report.outstanding).toBe(await balances(OTHER_CLIENT_ID));
    expect(report.months.at(-1)!.outstanding).toBe(report.outstanding);
  });

  it('counts participants by status and those who signed in within 30 days', async () => {
    const before = await get<ParticipantsReport>(auditor, paths.participants(ACME));
    const counts = await db()
      .selectFrom('participants')
      .select(['status', sql<string>`count(*)`.as('n')])
      .where('client_id', '=', ACME)
      .groupBy('status')
      .execute();
    expect(before.byStatus).toEqual(
      counts.map((c) => ({ status: c.status, count: Number(c.n) })).sort((a, b) => b.count - a.count || a.status.localeCompare(b.status)),
    );
    expect(before.total).toBe(counts.reduce((sum, c) => sum + Number(c.n), 0));
    expect(before.active.days).toBe(30);

    const [bea, demo] = [await participantId('bigspender'), await participantId('demo')];
    await db().deleteFrom('participant_sign_ins').where('client_id', '=', ACME).where('participant_id', 'in', [bea, demo]).execute();
    const base = (await get<ParticipantsReport>(auditor, paths.participants(ACME))).active.count;
    await db()
      .insertInto('participant_sign_ins')
      .values([
        { client_id: ACME, participant_id: bea, last_at: new Date(Date.now() - 29 * DAY).toISOString() },
        { client_id: ACME, participant_id: demo, last_at: new Date(Date.now() - 31 * DAY).toISOString() },
      ])
      .execute();
    expect((await get<ParticipantsReport>(auditor, paths.participants(ACME))).active.count).toBe(base + 1);
  });

  it("gives each code batch's generated, redeemed, expired, voided and open codes and its rate", async () => {
    const report = await get<CodesReport>(agent, paths.codes(ACME));
    const demo = report.batches.find((b) => b.batch === 'Demo 2026')!;
    const generated = DEMO_OTS_CODES.unused.length + 2;
    expect(demo).toEqual({
      batch: 'Demo 2026',
      generated,
      redeemed: 1,
      expired: 1,
      voided: 0,
      open: DEMO_OTS_CODES.unused.length,
      redemptionRate: 1 / generated,
      pointsRedeemed: DEMO_OTS_CODES.used.value,
    });
    const one = await db()
      .selectFrom('ots_codes')
      .select('id')
      .where('client_id', '=', ACME)
      .where('status', '=', 'unused')
      .where('batch', '=', 'Demo 2026')
      .where('expires_at', 'is', null)
      .executeTakeFirstOrThrow();
    await db().updateTable('ots_codes').set({ status: 'void' }).where('id', '=', one.id).execute();
    const after = (await get<CodesReport>(agent, paths.codes(ACME))).batches.find((b) => b.batch === 'Demo 2026')!;
    expect(after).toMatchObject({ voided: 1, open: demo.open - 1, generated });
    expect((await get<CodesReport>(agent, paths.codes(ACME))).total.generated).toBeGreaterThanOrEqual(generated);
  });

  it('counts catalog orders per month and per partner, once per order', async () => {
    const before = await get<OrdersReport>(auditor, paths.orders(ACME));
    const bea = await participantId('bigspender');
    const body = { orderId: `R-${randomUUID()}`, participantId: bea, points: 150, description: 'Report mug' };
    await debitForOrder(db(), ACME, DEMO_CATALOG_PARTNER_ID, body);
    await debitForOrder(db(), ACME, DEMO_CATALOG_PARTNER_ID, body); // a repeat: the same order
    await debitForOrder(db(), ACME, DEMO_CATALOG_PARTNER_ID, { ...body, orderId: `R-${randomUUID()}`, points: 50 });
    const after = await get<OrdersReport>(auditor, paths.orders(ACME));
    expect(after.months.at(-1)).toEqual({
      ...before.months.at(-1)!,
      orders: before.months.at(-1)!.orders + 2,
      points: before.months.at(-1)!.points + 200,
    });
    const partner = after.partners.find((p) => p.partnerId === DEMO_CATALOG_PARTNER_ID)!;
    expect(partner.orders).toBe((before.partners.find((p) => p.partnerId === DEMO_CATALOG_PARTNER_ID)?.orders ?? 0) + 2);
    expect(partner.name.length).toBeGreaterThan(0);
    // Folded, the same figures.
    await foldReports(db(), ACME, new Date(Date.now() + SETTLE_MS), { always: true });
    expect(await get<OrdersReport>(auditor, paths.orders(ACME))).toMatchObject({ months: after.months, partners: after.partners });
  });

  it('shows an owner every client side by side, others only theirs', async () => {
    const all = await get<ClientsComparison>(owner, paths.comparison);
    const clients = await db().selectFrom('clients').select('id').orderBy('id').execute();
    expect(all.clients.map((c) => c.clientId)).toEqual(clients.map((c) => c.id));
    const acme = all.clients.find((c) => c.clientId === ACME)!;
    expect(acme.outstanding).toBe(await balances());
    expect(acme.participants).toBe((await get<ParticipantsReport>(owner, paths.participants(ACME))).total);
    const mine = await get<ClientsComparison>(auditor, paths.comparison);
    expect(mine.clients.map((c) => c.clientId)).toEqual([ACME]);
    expect(mine.clients[0]).toEqual(acme);
  });

  it('refuses another client and a bad period with a 403 or 400, never a 500', async () => {
    for (const path of [paths.participants, paths.points, paths.codes, paths.orders])
      expect((await t.console('GET', path(OTHER_CLIENT_ID), { cookie: auditor.cookie })).statusCode).toBe(403);
    for (const months of ['0', '121', 'abc', '-3', '1.5']) {
      const reply = await t.console('GET', `${paths.points(ACME)}?months=${months}`, { cookie: auditor.cookie });
      expect(reply.statusCode, months).toBe(400);
      expect((await t.console('GET', `${paths.comparison}?months=${months}`, { cookie: owner.cookie })).statusCode).toBe(400);
    }
    expect((await t.console('GET', paths.points(ACME))).statusCode).toBe(401);
  });
});
