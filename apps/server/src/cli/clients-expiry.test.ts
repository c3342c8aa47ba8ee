import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../db/seed/demo.ts';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';

/** Each run of the command is its own Node process: a few seconds each on a busy machine. */
const SLOW = 180_000;

interface Shown {
  name: string;
  expiry: { policy: unknown; timeZone: string; reminderDays: number; lastChanceDays: number; expiry: string; description: string };
}

/** `rewards clients update --expiry …` and `clients show` (issue 19, docs/decisions/062), on both engines. */
describe.each(dialects)('rewards clients: points that expire, on %s', (dialect) => {
  let database: TestDatabase;
  const row = () =>
    database.db
      .selectFrom('clients')
      .select(['name', 'expiry_policy', 'time_zone', 'expiry_reminder_days', 'expiry_last_chance_days'])
      .where('id', '=', 'acme')
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop(), SLOW);

  it(
    'sets a rolling policy and a time zone, says it dates new points only, shows it in words and JSON, audited from and to',
    async () => {
      const run = await runRewards(database, [
        'clients',
        'update',
        '--client',
        'acme',
        '--expiry',
        'rolling:12',
        '--time-zone',
        'europe/paris',
        '--operator',
        'ops-anna',
      ]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toBe(
        [
          'Updated client acme: expiryPolicy, timeZone.',
          'Points expiry: points expire 12 months after they are earned, at the end of the day, Europe/Paris; mails: a reminder 30 days before, a last chance 7 days before.',
          'The new policy dates only points earned from now on: points already earned keep the expiry date they were given.',
          '',
        ].join('\n'),
      );
      expect(await row()).toMatchObject({ expiry_policy: '{"type":"rolling","months":12}', time_zone: 'Europe/Paris' });

      const shown = await runRewards(database, ['clients', 'show', '--client', 'acme']);
      expect(shown.stdout).toMatch(
        /^Points expiry +points expire 12 months after they are earned, at the end of the day, Europe\/Paris \(--expiry rolling:12\)$/m,
      );
      expect(shown.stdout).toMatch(/^Expiry mails +a reminder 30 days before, a last chance 7 days before$/m);
      const json = await rewardsJson<Shown>(database, ['clients', 'show', '--client', 'acme']);
      expect(json.expiry).toEqual({
        policy: { type: 'rolling', months: 12 },
        timeZone: 'Europe/Paris',
        reminderDays: 30,
        lastChanceDays: 7,
        expiry: 'rolling:12',
        description: 'points expire 12 months after they are earned, at the end of the day, Europe/Paris',
        reminders: 'a reminder 30 days before, a last chance 7 days before',
      });

      const set = await rewardsJson<{ changed: string[]; expiry: unknown }>(database, [
        'clients',
        'update',
        '--client',
        'acme',
        '--expiry',
        'calendar:year:1',
        '--expiry-reminder-days',
        '45',
        '--expiry-last-chance-days',
        '0',
      ]);
      expect(set.changed).toEqual(['expiryPolicy', 'expiryReminderDays', 'expiryLastChanceDays']);
      expect(set.expiry).toEqual({
        policy: { type: 'calendar', period: 'year', count: 1 },
        timeZone: 'Europe/Paris',
        reminderDays: 45,
        lastChanceDays: 0,
      });
      const audits = await rewardsJson<Array<{ actor: string; details: Record<string, unknown> }>>(database, [
        'audit',
        '--client',
        'acme',
        '--action',
        'clients.settings',
      ]);
      expect(audits.map((a) => a.details)).toEqual(
        expect.arrayContaining([
          {
            expiryPolicy: { from: { type: 'none' }, to: { type: 'rolling', months: 12 } },
            timeZone: { from: 'UTC', to: 'Europe/Paris' },
          },
          {
            expiryPolicy: { from: { type: 'rolling', months: 12 }, to: { type: 'calendar', period: 'year', count: 1 } },
            expiryReminderDays: { from: 30, to: 45 },
            expiryLastChanceDays: { from: 7, to: 0 },
          },
        ]),
      );
      expect(audits.find((a) => 'timeZone' in a.details)?.actor).toBe('ops-anna');
    },
    SLOW,
  );

  it(
    'refuses a bad value with exit 2 and a line naming the flag, and changes nothing (the other flags of the call neither)',
    async () => {
      const before = await row();
      const cases: Array<[string[], string]> = [
        [['--expiry', 'rolling:0'], 'rewards: --expiry: "rolling:0": the months are a whole number from 1 to 120\n'],
        [
          ['--expiry', 'sometimes'],
          `rewards: --expiry: "sometimes" is not a policy: none | rolling:<months> | calendar:<month|quarter|year>:<count> | inactivity:<months>\n`,
        ],
        [
          ['--time-zone', 'Mars/Base'],
          'rewards: --time-zone: "Mars/Base" is not a time zone: give an IANA name such as Europe/Paris or UTC\n',
        ],
        [['--expiry-reminder-days', '0'], 'rewards: --expiry-reminder-days must be a whole number from 1 to 365\n'],
        [
          ['--expiry-reminder-days', '5', '--expiry-last-chance-days', '6'],
          'rewards: --expiry-reminder-days, --expiry-last-chance-days: the reminder must go out more days before an expiry than the last chance (reminder 5, last chance 6)\n',
        ],
      ];
      // Refused runs change nothing, so they may run side by side (each is a Node process of its own).
      const [help, unknown, ...runs] = await Promise.all([
        runRewards(database, ['clients', 'update', '--help']),
        runRewards(database, ['clients', 'update', '--client', 'nowhere', '--expiry', 'none']),
        ...cases.map(([flags]) => runRewards(database, ['clients', 'update', '--client', 'acme', '--name', 'Renamed', ...flags])),
      ]);
      cases.forEach(([flags, stderr], index) => {
        const run = runs[index]!;
        expect([run.code, run.stderr, run.stdout], flags.join(' ')).toEqual([2, stderr, '']);
      });
      expect(await row()).toEqual(before);
      expect([unknown!.code, unknown!.stderr]).toEqual([2, expect.stringMatching(/^rewards: Unknown client "nowhere" \(known: .*acme/)]);
      expect(help!.stdout).toContain('rolling:12            each earning expires 12 months after the day it was earned');
      expect(help!.stdout).toContain('rewards clients update --client acme --expiry rolling:12 --time-zone Europe/Paris');
    },
    SLOW,
  );

  it(
    'creates a client with its policy from the start; a bad combination creates nothing',
    async () => {
      const refused = await runRewards(database, [
        ...['clients', 'create', '--client', 'zeta', '--name', 'Zeta', '--origin', 'zeta.example'],
        ...['--expiry', 'calendar:year:1', '--expiry-last-chance-days', '30'],
      ]);
      expect([refused.code, refused.stderr]).toEqual([
        2,
        'rewards: --expiry-reminder-days, --expiry-last-chance-days: the reminder must go out more days before an expiry than the last chance (reminder 30, last chance 30)\n',
      ]);
      expect(await database.db.selectFrom('clients').select('id').where('id', '=', 'zeta').executeTakeFirst()).toBeUndefined();

      await runRewards(database, [
        ...['clients', 'create', '--client', 'zeta', '--name', 'Zeta', '--origin', 'zeta.example'],
        ...['--expiry', 'calendar:year:1', '--time-zone', 'Asia/Tokyo'],
      ]);
      const shown = await rewardsJson<Shown>(database, ['clients', 'show', '--client', 'zeta']);
      expect(shown.expiry).toMatchObject({
        policy: { type: 'calendar', period: 'year', count: 1 },
        timeZone: 'Asia/Tokyo',
        reminderDays: 30,
      });
    },
    SLOW,
  );
});
