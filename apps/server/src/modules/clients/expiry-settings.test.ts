import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExpiryPolicy } from '@rewards/contract';
import { createDatabase, type Db } from '../../db/database.ts';
import { clearReadCache, configureReadCache } from '../../db/read-cache.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { ApiError } from '../../http/api-error.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import type { Actor } from '../participants/operator-service.ts';
import {
  canonicalTimeZone,
  clientExpirySettings,
  describeExpiry,
  describeReminders,
  parseExpiryPolicy,
  policyText,
  readExpirySettings,
  setExpirySettings,
  storedPolicy,
} from './expiry-settings.ts';

const ACME = 'acme';
const ACTOR: Actor = { name: 'ops-anna', kind: 'operator', origin: 'cli@test' };

describe('the expiry policy as text and in words', () => {
  it.each<[string, ExpiryPolicy]>([
    ['none', { type: 'none' }],
    ['rolling:12', { type: 'rolling', months: 12 }],
    ['Rolling:1', { type: 'rolling', months: 1 }],
    ['calendar:year:1', { type: 'calendar', period: 'year', count: 1 }],
    ['calendar:quarter:0', { type: 'calendar', period: 'quarter', count: 0 }],
    [' calendar:month:10 ', { type: 'calendar', period: 'month', count: 10 }],
    ['inactivity:18', { type: 'inactivity', months: 18 }],
  ])('reads %s', (text, policy) => {
    expect(parseExpiryPolicy(text)).toEqual(policy);
    expect(parseExpiryPolicy(policyText(policy))).toEqual(policy);
  });

  it.each([
    ['', /is not a policy/],
    ['never', /is not a policy/],
    ['rolling', /is not a policy/],
    ['rolling:12:1', /is not a policy/],
    ['rolling:0', /months are a whole number from 1 to 120/],
    ['rolling:121', /from 1 to 120/],
    ['rolling:1.5', /from 1 to 120/],
    ['rolling:-3', /from 1 to 120/],
    ['inactivity:x', /from 1 to 120/],
    ['calendar:week:1', /month, quarter or year/],
    ['calendar:year:11', /from 0 .* to 10/],
    ['calendar:year', /is not a policy/],
    ['none:1', /is not a policy/],
  ])('refuses %j', (text, message) => {
    expect(() => parseExpiryPolicy(text)).toThrow(message);
    expect(() => parseExpiryPolicy(text)).toThrow(ApiError);
  });

  it('says when points expire', () => {
    const paris = (policy: ExpiryPolicy) => describeExpiry({ policy, timeZone: 'Europe/Paris' });
    expect(paris({ type: 'rolling', months: 12 })).toBe(
      'points expire 12 months after they are earned, at the end of the day, Europe/Paris',
    );
    expect(paris({ type: 'rolling', months: 1 })).toBe('points expire 1 month after they are earned, at the end of the day, Europe/Paris');
    expect(paris({ type: 'calendar', period: 'quarter', count: 0 })).toBe(
      'points expire at the end of the quarter they are earned in, Europe/Paris time',
    );
    expect(paris({ type: 'calendar', period: 'year', count: 1 })).toBe(
      'points expire at the end of the year after the one they are earned in, Europe/Paris time',
    );
    expect(paris({ type: 'calendar', period: 'month', count: 3 })).toBe(
      'points expire at the end of the 3rd month after the one they are earned in, Europe/Paris time',
    );
    expect(paris({ type: 'inactivity', months: 18 })).toBe(
      'the whole balance expires after 18 months without any earning or spending, at the end of the day, Europe/Paris',
    );
    expect(paris({ type: 'none' })).toBe('points never expire');
    expect(describeReminders({ reminderDays: 30, lastChanceDays: 0 })).toBe('a reminder 30 days before, a last chance on the day');
    expect(describeReminders({ reminderDays: 2, lastChanceDays: 1 })).toBe('a reminder 2 days before, a last chance 1 day before');
  });

  it('takes IANA zones by any spelling, in their canonical form, and nothing else', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('US/Eastern')).toBe('America/New_York');
    for (const bad of ['Mars/Base', '+01:00', '-05:00', '', '   ', 'x'.repeat(65)]) expect(canonicalTimeZone(bad), bad).toBeUndefined();
  });

  it('reads a stored row that is not a policy as none: nothing expires by mistake', () => {
    expect(storedPolicy('{"type":"rolling","months":6}')).toEqual({ type: 'rolling', months: 6 });
    expect(storedPolicy('{"type":"rolling","months":0}')).toEqual({ type: 'none' });
    expect(storedPolicy('not json')).toEqual({ type: 'none' });
  });
});

describe.each(dialects)('the expiry settings on %s', (dialect) => {
  let database: TestDatabase;
  const db = () => database.db;
  const audits = () =>
    db()
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject', 'details'])
      .where('action', '=', 'clients.settings')
      .orderBy('at')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await db()
      .updateTable('clients')
      .set({ expiry_policy: '{"type":"none"}', time_zone: 'UTC', expiry_reminder_days: 30, expiry_last_chance_days: 7 })
      .execute();
    await db().deleteFrom('audit_log').execute();
  });

  it('starts every client at none, UTC, 30 and 7 days (migration 025)', async () => {
    expect(await readExpirySettings(db(), ACME)).toEqual({
      policy: { type: 'none' },
      timeZone: 'UTC',
      reminderDays: 30,
      lastChanceDays: 7,
    });
  });

  it('sets what is given, with one audit entry of each change from and to, and leaves the rest', async () => {
    const done = await setExpirySettings(
      db(),
      ACTOR,
      ACME,
      { policy: { type: 'rolling', months: 12 }, timeZone: 'europe/paris' },
      'Q1 policy',
    );
    expect(done.changed).toEqual(['expiryPolicy', 'timeZone']);
    expect(done.to).toEqual({ policy: { type: 'rolling', months: 12 }, timeZone: 'Europe/Paris', reminderDays: 30, lastChanceDays: 7 });
    expect(await readExpirySettings(db(), ACME)).toEqual(done.to);
    const [audit, ...more] = await audits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: 'ops-anna', subject: ACME });
    expect(JSON.parse(audit!.details)).toEqual({
      expiryPolicy: { from: { type: 'none' }, to: { type: 'rolling', months: 12 } },
      timeZone: { from: 'UTC', to: 'Europe/Paris' },
      reason: 'Q1 policy',
    });
    // The other clients are untouched.
    const others = await db().selectFrom('clients').select('expiry_policy').where('id', '!=', ACME).execute();
    expect(others.map((o) => o.expiry_policy)).toEqual(others.map(() => '{"type":"none"}'));

    // The same again writes nothing.
    const again = await setExpirySettings(db(), ACTOR, ACME, { policy: { type: 'rolling', months: 12 }, timeZone: 'Europe/Paris' });
    expect(again).toMatchObject({ changed: [], auditId: null });
    expect(await audits()).toHaveLength(1);
  });

  it('refuses a bad value and changes nothing, nor writes an audit entry', async () => {
    const before = await readExpirySettings(db(), ACME);
    const refusals: Array<[Parameters<typeof setExpirySettings>[3], RegExp]> = [
      [{ timeZone: 'Mars/Base', policy: { type: 'rolling', months: 6 } }, /"Mars\/Base" is not a time zone/],
      [{ lastChanceDays: 30 }, /reminder must go out more days before an expiry than the last chance \(reminder 30, last chance 30\)/],
      [{ reminderDays: 5, lastChanceDays: 9 }, /more days before/],
      [{ reminderDays: 0 }, /reminder days must be a whole number from 1 to 365/],
      [{ reminderDays: 366 }, /from 1 to 365/],
      [{ lastChanceDays: -1 }, /last-chance days must be a whole number from 0 to 365/],
      [{ reminderDays: 2.5 }, /whole number/],
      // What a caller of the service could pass past the types.
      [{ policy: { type: 'rolling', months: 0 } }, /expiry policy is not one of/],
      [{ policy: { type: 'sometimes' } as unknown as ExpiryPolicy }, /expiry policy is not one of/],
    ];
    for (const [change, message] of refusals) {
      const refused = await setExpirySettings(db(), ACTOR, ACME, change).catch((error: unknown) => error);
      expect(refused, JSON.stringify(change)).toBeInstanceOf(ApiError);
      expect((refused as ApiError).statusCode).toBe(400);
      expect((refused as ApiError).message).toMatch(message);
    }
    expect(await readExpirySettings(db(), ACME)).toEqual(before);
    expect(await audits()).toEqual([]);
    await expect(setExpirySettings(db(), ACTOR, 'nowhere', { reminderDays: 20 })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('takes the reminder and last chance together or one at a time, as long as the reminder comes first', async () => {
    // 7 → 40 alone would pass the reminder (30): given with it, it is the pair that counts.
    await setExpirySettings(db(), ACTOR, ACME, { reminderDays: 60, lastChanceDays: 40 });
    await setExpirySettings(db(), ACTOR, ACME, { lastChanceDays: 0 });
    expect(await readExpirySettings(db(), ACME)).toMatchObject({ reminderDays: 60, lastChanceDays: 0 });
  });

  it("shows a change on another process within its cache's lifetime, and not before", async () => {
    const portal: Db = createDatabase(database.config);
    configureReadCache(portal, 5);
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // lru-cache reads a start of 0 as "no time limit"; a real process's clock is never at 0.
      vi.advanceTimersByTime(1);
      clearReadCache(portal);
      expect((await clientExpirySettings(portal, ACME))?.policy).toEqual({ type: 'none' });
      await setExpirySettings(db(), ACTOR, ACME, { policy: { type: 'calendar', period: 'year', count: 1 } });
      vi.advanceTimersByTime(4_000);
      expect((await clientExpirySettings(portal, ACME))?.policy).toEqual({ type: 'none' });
      vi.advanceTimersByTime(1_001);
      expect((await clientExpirySettings(portal, ACME))?.policy).toEqual({ type: 'calendar', period: 'year', count: 1 });
      expect(await clientExpirySettings(portal, 'nowhere')).toBeUndefined();
    } finally {
      vi.useRealTimers();
      await portal.destroy();
    }
  });
});
