import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { seedOtherClient } from '../../../test/other-client.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import type { Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { appendLedgerEntry } from '../ledger/service.ts';
import { createMailDelivery } from '../mail/delivery.ts';
import { sendExpiryReminders } from './reminders.ts';
import { recordNotices } from './reminders-store.ts';
import { addExpiryParticipant, creditWithExpiry, dayFrom, spendFromLot } from './test-support.ts';

// Each test lives on days of its own (years apart): what one leaves behind is long due, or far
// ahead, for the others' runs.

describe.each(dialects)('expiry reminders on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let sink: SmtpSink;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await seedDemo(db);
    await seedOtherClient(db);
    sink = await createSmtpSink();
  });
  afterAll(async () => {
    await sink.down();
    await database.drop();
  });

  /** The expiry mails queued for a participant, oldest first: kind and what they list. */
  const queued = async (participantId: string) =>
    (
      await db
        .selectFrom('mail_outbox')
        .select(['template', 'to_address', 'locale', 'params', 'created_at'])
        .where('participant_id', '=', participantId)
        .where('template', 'in', ['expiryReminder', 'expiryLastChance'])
        .orderBy('created_at')
        .orderBy('template')
        .execute()
    ).map((row) => ({
      template: row.template,
      to: row.to_address,
      expiries: (JSON.parse(row.params ?? '{}') as { values: { expiries: unknown } }).values.expiries,
    }));

  it('tells each participant once per lot and kind, what remains only, and never a pending or inactive participant', async () => {
    const T = '2027-01-10';
    const erin = await addExpiryParticipant(db, { username: 'erin' });
    const earned = '2026-06-01';
    const lot = (points: number, days: number | null) =>
      creditWithExpiry(db, { participantId: erin, points, earnedOn: earned, expiresOn: days === null ? null : dayFrom(T, days) });
    // Debits take the soonest lot first: each spend comes while its lot is the soonest open one.
    const partly = await lot(400, 25);
    await spendFromLot(db, { participantId: erin, lotId: partly.lotId, points: 150 });
    const spent = await lot(90, 22);
    await spendFromLot(db, { participantId: erin, lotId: spent.lotId, points: 90 });
    const lastChance = await lot(300, 5);
    await lot(1_250, 20);
    await lot(500, 60);
    await lot(60, null);
    // Lots due as soon, of people who must not be written to.
    for (const [username, status, email] of [
      ['pam', 'pending', undefined],
      ['ian', 'inactive', undefined],
      ['noaddress', 'active', ''],
    ] as const) {
      const id = await addExpiryParticipant(db, { username, status, ...(email === undefined ? {} : { email }) });
      await creditWithExpiry(db, { participantId: id, points: 100, earnedOn: earned, expiresOn: dayFrom(T, 10) });
    }

    expect(await sendExpiryReminders(db, { asOf: T })).toEqual({ reminder: 1, lastChance: 1, lots: 3 });
    expect(await queued(erin)).toEqual([
      { template: 'expiryLastChance', to: 'erin@example.com', expiries: [{ date: dayFrom(T, 5), points: 300 }] },
      {
        template: 'expiryReminder',
        to: 'erin@example.com',
        expiries: [
          { date: dayFrom(T, 20), points: 1_250 },
          { date: dayFrom(T, 25), points: 250 },
        ],
      },
    ]);
    // Run again the same day, or twice at once: nothing new.
    expect(await sendExpiryReminders(db, { asOf: T })).toEqual({ reminder: 0, lastChance: 0, lots: 0 });
    const again = await Promise.all([sendExpiryReminders(db, { asOf: T }), sendExpiryReminders(db, { asOf: T })]);
    expect(again).toEqual([
      { reminder: 0, lastChance: 0, lots: 0 },
      { reminder: 0, lastChance: 0, lots: 0 },
    ]);

    // Fifteen days on: the 1,250 enter their last week (the 250 were reminded already, and are not in it yet).
    expect(await sendExpiryReminders(db, { asOf: dayFrom(T, 15) })).toEqual({ reminder: 0, lastChance: 1, lots: 1 });
    // Forty days on: the 500 are thirty days away.
    expect(await sendExpiryReminders(db, { asOf: dayFrom(T, 40) })).toEqual({ reminder: 1, lastChance: 0, lots: 1 });
    expect((await queued(erin)).slice(2)).toEqual([
      { template: 'expiryLastChance', to: 'erin@example.com', expiries: [{ date: dayFrom(T, 20), points: 1_250 }] },
      { template: 'expiryReminder', to: 'erin@example.com', expiries: [{ date: dayFrom(T, 60), points: 500 }] },
    ]);
    // A lot first seen in its last week gets the last chance only, not a late reminder as well.
    const notices = await db.selectFrom('expiry_notices').select(['kind']).where('lot_id', '=', lastChance.lotId).execute();
    expect(notices).toEqual([{ kind: 'lastChance' }]);
  });

  it('writes to two participants at once, with each lot told once, when two runs race', async () => {
    const T = '2032-03-01';
    const ids = await Promise.all(['rae', 'rob'].map((username) => addExpiryParticipant(db, { username })));
    for (const id of ids) {
      await creditWithExpiry(db, { participantId: id, points: 70, earnedOn: '2031-03-01', expiresOn: dayFrom(T, 3) });
      await creditWithExpiry(db, { participantId: id, points: 80, earnedOn: '2031-03-01', expiresOn: dayFrom(T, 12) });
    }
    const runs = await Promise.all([sendExpiryReminders(db, { asOf: T }), sendExpiryReminders(db, { asOf: T, clientId: 'acme' })]);
    expect(runs.reduce((sum, r) => sum + r.reminder + r.lastChance, 0)).toBe(4);
    expect(runs.reduce((sum, r) => sum + r.lots, 0)).toBe(4);
    for (const id of ids) expect((await queued(id)).map((m) => m.template).sort()).toEqual(['expiryLastChance', 'expiryReminder']);
  });

  it('records a notice once: a second record of it counts nothing, unless the first went before the last activity', async () => {
    const lot = `lot-${dialect}-notice`;
    const record = (staleBefore?: string) =>
      db.transaction().execute((trx) => recordNotices(trx, [{ lotId: lot, kind: 'reminder', staleBefore }], '2040-01-01T12:00:00.000Z'));
    expect(await record()).toBe(1);
    expect(await record()).toBe(0);
    // The last activity came before the notice: it still counts.
    expect(await record('2039-12-31T08:00:00.000Z')).toBe(0);
    await db.updateTable('expiry_notices').set({ sent_at: '2039-12-01T12:00:00.000Z' }).where('lot_id', '=', lot).execute();
    expect(await record('2040-01-01T08:00:00.000Z')).toBe(1);
    expect(await db.selectFrom('expiry_notices').select('sent_at').where('lot_id', '=', lot).execute()).toEqual([
      { sent_at: '2040-01-01T12:00:00.000Z' },
    ]);
  });

  it('under an inactivity policy, tells the whole balance before it goes, and again after a new spell of inactivity', async () => {
    await db
      .updateTable('clients')
      .set({ expiry_policy: JSON.stringify({ type: 'inactivity', months: 12 }) })
      .where('id', '=', 'acme')
      .execute();
    try {
      const ida = await addExpiryParticipant(db, { username: 'ida' });
      await creditWithExpiry(db, { participantId: ida, points: 900, earnedOn: '2029-06-21', expiresOn: null });
      await creditWithExpiry(db, { participantId: ida, points: 100, earnedOn: '2029-06-21', expiresOn: null });

      expect(await sendExpiryReminders(db, { asOf: '2030-06-01', clientId: 'acme' })).toMatchObject({ reminder: 1, lastChance: 0 });
      expect(await queued(ida)).toEqual([
        { template: 'expiryReminder', to: 'ida@example.com', expiries: [{ date: '2030-06-21', points: 1_000 }] },
      ]);
      expect(await sendExpiryReminders(db, { asOf: '2030-06-02', clientId: 'acme' })).toMatchObject({ reminder: 0, lastChance: 0 });

      // She spends: the clock starts again, nothing is due for a year; then it is, and she is told again.
      await db.transaction().execute((trx) =>
        appendLedgerEntry(trx, {
          clientId: 'acme',
          participantId: ida,
          occurredAt: '2030-06-05T10:00:00.000Z',
          description: 'Travel mug',
          amount: -200,
          kind: 'redemption',
        }),
      );
      expect(await sendExpiryReminders(db, { asOf: '2030-06-10', clientId: 'acme' })).toMatchObject({ reminder: 0, lastChance: 0 });
      expect(await sendExpiryReminders(db, { asOf: '2031-05-20', clientId: 'acme' })).toMatchObject({ reminder: 1, lastChance: 0 });
      expect((await queued(ida)).at(-1)).toEqual({
        template: 'expiryReminder',
        to: 'ida@example.com',
        expiries: [{ date: '2031-06-05', points: 800 }],
      });
    } finally {
      await db.updateTable('clients').set({ expiry_policy: '{"type":"none"}' }).where('id', '=', 'acme').execute();
    }
  });

  it('delivers the reminder and the last chance once each to a real SMTP server, in the participant’s language, with amounts and dates', async () => {
    const T = '2035-01-10';
    const mia = await addExpiryParticipant(db, { username: 'mia' });
    await creditWithExpiry(db, { participantId: mia, points: 1, earnedOn: '2034-01-10', expiresOn: dayFrom(T, 3) });
    await creditWithExpiry(db, { participantId: mia, points: 1_250, earnedOn: '2034-01-10', expiresOn: '2035-01-31' });
    await creditWithExpiry(db, { participantId: mia, points: 40, earnedOn: '2034-01-10', expiresOn: '2035-02-02' });
    const nour = await addExpiryParticipant(db, { username: 'nour', locale: 'ar' });
    await creditWithExpiry(db, { participantId: nour, points: 1_250, earnedOn: '2034-01-10', expiresOn: '2035-01-31' });

    await sink.up();
    const mail = { ...loadConfig({}).mail, smtpUrl: sink.url };
    const deliver = async () => {
      const delivery = createMailDelivery({ db, mail, log: { info: () => {}, warn: () => {} } });
      try {
        return await delivery.deliverDue();
      } finally {
        delivery.close();
      }
    };
    // Only this test's mails are still pending: the earlier tests' were never delivered, and go now too.
    while ((await deliver()) > 0);
    sink.received.length = 0;

    await sendExpiryReminders(db, { asOf: T, clientId: 'acme' });
    expect(await deliver()).toBe(3);
    await sendExpiryReminders(db, { asOf: T, clientId: 'acme' });
    expect(await deliver()).toBe(0);

    const to = (address: string) => sink.received.filter((m) => m.to.includes(address));
    const lastChance = to('mia@example.com').find((m) => m.subject.startsWith('Last chance'));
    const reminder = to('mia@example.com').find((m) => m.subject.startsWith('Expiring soon'));
    expect(to('mia@example.com')).toHaveLength(2);
    expect(lastChance?.subject).toBe('Last chance: 1 Acme Point expiring within days');
    expect(lastChance?.text).toContain('January 13, 2035: 1 Acme Point');
    expect(reminder?.subject).toBe('Expiring soon: 1,290 Acme Points');
    // Every day with its amount, never only the soonest.
    expect(reminder?.text).toContain('January 31, 2035: 1,250 Acme Points');
    expect(reminder?.text).toContain('February 2, 2035: 40 Acme Points');
    expect(reminder?.text).toContain('Hello Erin,');
    expect(reminder?.text).toContain('http://localhost:3000/home');
    expect(reminder?.html).toContain('Acme Rewards');
    expect(reminder?.html).toContain('href="http://localhost:3000/home"');

    const [arabic] = to('nour@example.com');
    expect(to('nour@example.com')).toHaveLength(1);
    expect(arabic?.html).toContain('dir="rtl"');
    expect(arabic?.subject).toContain('تنتهي صلاحيتها قريبًا');
    // Whichever digits this ICU gives Arabic, the mail uses the same.
    const day = new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date('2035-01-31T00:00:00Z'));
    expect(arabic?.text).toContain(`${day}: ${new Intl.NumberFormat('ar').format(1_250)} `);
    expect(day).toContain('يناير');
  });
});
