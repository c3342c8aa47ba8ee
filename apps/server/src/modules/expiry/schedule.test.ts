import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type ExpiryScheduleReply } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID, OTHER_PASSWORD } from '../../../test/other-client.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { appendLedgerEntry } from '../ledger/service.ts';
import { addDays, addMonths, dayIn, getExpirySchedule } from './schedule.ts';
import { addExpiryParticipant, creditWithExpiry, dayFrom, spendFromLot } from './test-support.ts';

describe('calendar days', () => {
  it('reads the day in the client’s zone, and adds months without running into the next month', () => {
    const at = new Date('2027-01-01T03:00:00Z');
    expect(dayIn(at, 'UTC')).toBe('2027-01-01');
    expect(dayIn(at, 'America/New_York')).toBe('2026-12-31');
    expect(dayIn(new Date('2026-12-31T11:00:00Z'), 'Pacific/Kiritimati')).toBe('2027-01-01');
    // An unknown zone reads as UTC rather than failing a page.
    expect(dayIn(at, 'Mars/Olympus_Mons')).toBe('2027-01-01');
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-03-15', 12)).toBe('2028-03-15');
    expect(addMonths('2027-03-31', -1)).toBe('2027-02-28');
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
  });
});

describe.each(dialects)('GET user/points/expiring on %s', (dialect) => {
  let t: TestApp;
  let erin = '';
  let session = '';
  const today = dayIn(new Date(), 'UTC');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const db = t.database.db;
    erin = await addExpiryParticipant(db, { username: 'erin', passwordFrom: 'demo' });
    const earned = addDays(today, -100);
    await creditWithExpiry(db, { participantId: erin, points: 1_250, earnedOn: earned, expiresOn: dayFrom(today, 20) });
    await creditWithExpiry(db, { participantId: erin, points: 300, earnedOn: earned, expiresOn: dayFrom(today, 20) });
    await creditWithExpiry(db, { participantId: erin, points: 500, earnedOn: earned, expiresOn: dayFrom(today, 200) });
    const partly = await creditWithExpiry(db, { participantId: erin, points: 400, earnedOn: earned, expiresOn: dayFrom(today, 10) });
    await spendFromLot(db, { participantId: erin, lotId: partly.lotId, points: 150 });
    const spent = await creditWithExpiry(db, { participantId: erin, points: 90, earnedOn: earned, expiresOn: dayFrom(today, 5) });
    await spendFromLot(db, { participantId: erin, lotId: spent.lotId, points: 90 });
    // Beyond the twelve months, and without a day of its own (earned under no policy): not shown.
    await creditWithExpiry(db, { participantId: erin, points: 700, earnedOn: earned, expiresOn: addDays(addMonths(today, 12), 1) });
    await creditWithExpiry(db, { participantId: erin, points: 60, earnedOn: earned, expiresOn: null });
    // Someone else's lots, in this client and in another.
    const other = await addExpiryParticipant(db, { username: 'otto' });
    await creditWithExpiry(db, { participantId: other, points: 999, earnedOn: earned, expiresOn: dayFrom(today, 20) });
    const demoOfGlobex = await db
      .selectFrom('participants')
      .select('id')
      .where('client_id', '=', OTHER_CLIENT_ID)
      .where('username_key', '=', 'demo')
      .executeTakeFirstOrThrow();
    await creditWithExpiry(db, {
      clientId: OTHER_CLIENT_ID,
      participantId: demoOfGlobex.id,
      points: 77,
      earnedOn: earned,
      expiresOn: dayFrom(today, 30),
    });
    session = (await t.login('erin')).sessionId;
  });
  afterAll(() => t.close());

  const schedule = async (sessionId: string | undefined, origin?: string) =>
    t.api('GET', apiPaths.expirySchedule, { session: sessionId, origin });

  it('lists what remains of the participant’s own lots per day, soonest first, over twelve months', async () => {
    const reply = await schedule(session);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toContain('no-store');
    expect(reply.json<ExpiryScheduleReply>()).toEqual({
      expiries: [
        { date: dayFrom(today, 10), points: 250 },
        { date: dayFrom(today, 20), points: 1_550 },
        { date: dayFrom(today, 200), points: 500 },
      ],
    });
  });

  it('answers nothing but a 401 without a session, and each participant their own only', async () => {
    expect((await schedule(undefined)).statusCode).toBe(401);
    expect((await schedule('x'.repeat(43))).statusCode).toBe(401);
    const dana = await t.login('demo');
    expect((await schedule(dana.sessionId)).json<ExpiryScheduleReply>()).toEqual({ expiries: [] });
    // Erin's session is not one of the other client's.
    expect((await schedule(session, OTHER_ORIGIN)).statusCode).toBe(401);
    const gina = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await schedule(gina.sessionId, OTHER_ORIGIN)).json<ExpiryScheduleReply>()).toEqual({
      expiries: [{ date: dayFrom(today, 30), points: 77 }],
    });
  });

  it('takes today in the client’s time zone; points already due and not yet taken by the run show as today', async () => {
    const db = t.database.db;
    // 02:00 UTC the day after the lot's day: still the lot's own day in New York, the next one in UTC.
    const at = new Date(`${dayFrom(today, 11)}T02:00:00Z`);
    const read = () => getExpirySchedule(db, { client_id: 'acme', participant_id: erin }, at);
    await db.updateTable('clients').set({ time_zone: 'America/New_York' }).where('id', '=', 'acme').execute();
    try {
      expect((await read()).expiries[0]).toEqual({ date: dayFrom(today, 10), points: 250 });
      await db.updateTable('clients').set({ time_zone: 'UTC' }).where('id', '=', 'acme').execute();
      // Its day is over in UTC, but the run has not taken it yet: it shows as going today.
      expect((await read()).expiries[0]).toEqual({ date: dayFrom(today, 11), points: 250 });
    } finally {
      await db.updateTable('clients').set({ time_zone: 'UTC' }).where('id', '=', 'acme').execute();
    }
  });

  it('under an inactivity policy, shows the whole balance on the day it would go, with earlier dated lots on their own days', async () => {
    const db = t.database.db;
    const ivy = await addExpiryParticipant(db, { username: 'ivy' });
    const lastActive = addDays(today, -150);
    await creditWithExpiry(db, { participantId: ivy, points: 800, earnedOn: lastActive, expiresOn: null });
    // Dated before the inactivity day (from an earlier rolling policy): its own day; dated after: goes with the rest.
    await creditWithExpiry(db, { participantId: ivy, points: 40, earnedOn: lastActive, expiresOn: dayFrom(today, 3) });
    await creditWithExpiry(db, { participantId: ivy, points: 25, earnedOn: lastActive, expiresOn: dayFrom(today, 300) });
    await db
      .updateTable('clients')
      .set({ expiry_policy: JSON.stringify({ type: 'inactivity', months: 6 }) })
      .where('id', '=', 'acme')
      .execute();
    try {
      const goesOn = addMonths(lastActive, 6);
      const read = () => getExpirySchedule(db, { client_id: 'acme', participant_id: ivy });
      expect(await read()).toEqual({
        expiries: [
          { date: dayFrom(today, 3), points: 40 },
          { date: goesOn, points: 825 },
        ],
      });
      // Spending starts the clock again: the balance now goes six months from today.
      await db.transaction().execute((trx) =>
        appendLedgerEntry(trx, {
          clientId: 'acme',
          participantId: ivy,
          occurredAt: new Date().toISOString(),
          description: 'Travel mug',
          amount: -5,
          kind: 'redemption',
        }),
      );
      const after = (await read()).expiries;
      expect(after.at(-1)?.date).toBe(addMonths(today, 6));
      // Someone who never earned or spent has nothing that expires.
      const nobody = await addExpiryParticipant(db, { username: 'nobody' });
      expect(await getExpirySchedule(db, { client_id: 'acme', participant_id: nobody })).toEqual({ expiries: [] });
    } finally {
      await db.updateTable('clients').set({ expiry_policy: '{"type":"none"}' }).where('id', '=', 'acme').execute();
    }
  });

  it('treats a policy that does not read as none rather than failing', async () => {
    const db = t.database.db;
    await db.updateTable('clients').set({ expiry_policy: '{"type":"inactivity"' }).where('id', '=', 'acme').execute();
    try {
      const reply = await schedule(session);
      expect(reply.statusCode).toBe(200);
      expect(reply.json<ExpiryScheduleReply>().expiries).toHaveLength(3);
    } finally {
      await db.updateTable('clients').set({ expiry_policy: '{"type":"none"}' }).where('id', '=', 'acme').execute();
    }
  });
});
