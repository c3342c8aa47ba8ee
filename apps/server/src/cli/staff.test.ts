import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePaths, type EnrolmentView } from '@rewards/contract/console';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { dialects } from '../../test/databases.ts';
import type { EnrolmentLink, StaffView } from '../modules/staff/accounts.ts';
import { consoleCookieOf, createConsoleTestApp, enrolStaff, signIn, tokenOf, type ConsoleTestApp } from '../modules/staff/test-support.ts';

/** Each command is a process of its own (about 2 s on this machine): a test runs several. */
const CLI_TIMEOUT = 90_000;

/** `rewards staff …` (issue 17): each command parses, calls modules/staff and prints; every change is audited with who and why. */
describe.each(dialects)('rewards staff on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
  });
  afterAll(() => t.close());

  const rewards = (args: string[]) => runRewards(t.database, ['--operator', 'ops-alice', ...args]);
  const audit = async (action: string) =>
    (
      await t.database.db
        .selectFrom('audit_log')
        .select(['actor', 'actor_kind', 'client_id', 'subject', 'details'])
        .where('action', '=', action)
        .orderBy('at')
        .execute()
    ).map((e) => ({ ...e, details: JSON.parse(e.details) as unknown }));

  it(
    'create prints a single-use enrolment link on the console origin that opens the enrolment; audited with the reason',
    async () => {
      const run = await rewards([
        'staff',
        'create',
        'Sam.Support@acme.test',
        '--name',
        'Sam Support',
        '--role',
        'support_agent',
        '--client',
        'acme',
        '--role',
        'auditor',
        '--client',
        'globex',
        '--reason',
        'new hire, ticket 42',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Created staff member Sam.Support@acme.test (acme:support_agent, globex:auditor).');
      const url = /http:\/\/console\.localhost:3000\/console\/enrol#[A-Za-z0-9_-]{43}/.exec(run.stdout)?.[0] ?? '';
      expect(url).not.toBe('');
      const view = await t.console('GET', consolePaths.enrolment, { token: tokenOf(url) });
      expect(view.json<EnrolmentView>()).toMatchObject({
        email: 'Sam.Support@acme.test',
        name: 'Sam Support',
        roles: [
          { clientId: 'acme', role: 'support_agent' },
          { clientId: 'globex', role: 'auditor' },
        ],
      });
      expect(await audit('staff.create')).toEqual([
        {
          actor: 'ops-alice',
          actor_kind: 'operator',
          client_id: null,
          subject: 'Sam.Support@acme.test',
          details: {
            reason: 'new hire, ticket 42',
            owner: false,
            roles: [
              { clientId: 'acme', role: 'support_agent' },
              { clientId: 'globex', role: 'auditor' },
            ],
            linkBy: 'print',
          },
        },
      ]);
      // Each role in its client's trail too.
      // (One time for all of them: in client order.)
      expect(
        (await audit('staff.grant')).map((e) => [e.client_id, e.details]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ).toEqual([
        ['acme', { reason: 'new hire, ticket 42', role: 'support_agent' }],
        ['globex', { reason: 'new hire, ticket 42', role: 'auditor' }],
      ]);
      // The token is in no audit entry.
      expect(JSON.stringify(await audit('staff.create'))).not.toContain(tokenOf(url));
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses bad input with one line and exit 2, changing nothing',
    async () => {
      const before = await t.database.db.selectFrom('staff').select('email').execute();
      const cases: Array<[string[], string]> = [
        [
          ['staff', 'create', 'x@acme.test', '--name', 'X', '--role', 'boss', '--client', 'acme', '--reason', 'test'],
          '--role must be one of program_manager, support_agent, auditor',
        ],
        [
          ['staff', 'create', 'x@acme.test', '--name', 'X', '--role', 'auditor', '--client', 'nowhere', '--reason', 'test'],
          'Unknown client nowhere',
        ],
        [['staff', 'create', 'x@acme.test', '--name', 'X', '--role', 'auditor', '--reason', 'test'], 'give each --role with its --client'],
        [['staff', 'create', 'x@acme.test', '--name', 'X', '--reason', 'test'], 'Make the person an owner or give at least one role'],
        [['staff', 'create', 'not-an-address', '--name', 'X', '--owner', '--reason', 'test'], 'is not an e-mail address'],
        [
          ['staff', 'create', 'SAM.SUPPORT@acme.test', '--name', 'Again', '--owner', '--reason', 'test'],
          'This e-mail address is on staff already',
        ],
        [['staff', 'create', 'x@acme.test', '--name', 'X', '--owner'], "required option '--reason <text>'"],
        [['staff', 'disable', 'nobody@acme.test', '--reason', 'test'], 'No staff member with the e-mail address nobody@acme.test'],
        [['staff', 'grant', 'sam.support@acme.test', '--client', 'acme', '--reason', 'test'], '--role is required'],
        [
          ['clients', 'update', '--client', 'acme', '--origin', 'http://Console.localhost:3000'],
          "console.localhost is the staff console's host",
        ],
      ];
      for (const [args, message] of cases) {
        const run = await rewards(args);
        expect([args.join(' '), run.code, run.stderr]).toEqual([args.join(' '), 2, expect.stringContaining(message)]);
      }
      expect(await t.database.db.selectFrom('staff').select('email').execute()).toEqual(before);
      expect(await t.database.db.selectFrom('client_hosts').select('hostname').where('hostname', 'like', 'console%').execute()).toEqual([]);
    },
    CLI_TIMEOUT,
  );

  it(
    'grant and revoke roles per client and the owner flag; list shows roles, status, enrolment and last sign-in',
    async () => {
      const granted = await rewardsJson<{ staff: StaffView; changed: boolean }>(t.database, [
        '--operator',
        'ops-alice',
        'staff',
        'grant',
        'sam.support@acme.test',
        '--client',
        'globex',
        '--role',
        'program_manager',
        '--reason',
        'runs globex now',
      ]);
      expect(granted.changed).toBe(true);
      expect(granted.staff.roles.map((r) => `${r.clientId}:${r.role}`)).toEqual(['acme:support_agent', 'globex:program_manager']);
      const again = await rewardsJson<{ changed: boolean }>(t.database, [
        'staff',
        'grant',
        'sam.support@acme.test',
        '--client',
        'globex',
        '--role',
        'program_manager',
        '--reason',
        'again',
      ]);
      expect(again.changed).toBe(false);
      expect(
        (await rewardsJson<{ staff: StaffView }>(t.database, ['staff', 'grant', 'sam.support@acme.test', '--owner', '--reason', 'cover']))
          .staff.owner,
      ).toBe(true);
      expect(
        (
          await rewardsJson<{ staff: StaffView }>(t.database, [
            'staff',
            'revoke',
            'sam.support@acme.test',
            '--owner',
            '--reason',
            'cover ended',
          ])
        ).staff.owner,
      ).toBe(false);
      const revoked = await rewardsJson<{ staff: StaffView }>(t.database, [
        'staff',
        'revoke',
        'sam.support@acme.test',
        '--client',
        'acme',
        '--reason',
        'moved team',
      ]);
      expect(revoked.staff.roles.map((r) => `${r.clientId}:${r.role}`)).toEqual(['globex:program_manager']);
      expect(await audit('staff.grant')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            actor: 'ops-alice',
            client_id: 'globex',
            details: { reason: 'runs globex now', role: 'program_manager', replaces: 'auditor' },
          }),
        ]),
      );
      expect(await audit('staff.revoke')).toEqual(
        expect.arrayContaining([expect.objectContaining({ client_id: 'acme', details: { reason: 'moved team', role: 'support_agent' } })]),
      );

      const enrolled = await enrolStaff(t, 'olga@rewards.test', { owner: true });
      await signIn(t, enrolled);
      const list = await rewardsJson<StaffView[]>(t.database, ['staff', 'list']);
      expect(list.find((s) => s.email === 'olga@rewards.test')).toMatchObject({
        owner: true,
        status: 'active',
        enrolled: true,
        enrolmentOpenUntil: null,
        lastSignInAt: expect.any(String),
      });
      expect(list.find((s) => s.email === 'Sam.Support@acme.test')).toMatchObject({
        enrolled: false,
        lastSignInAt: null,
        enrolmentOpenUntil: expect.any(String),
      });
      const human = await rewards(['staff', 'list']);
      expect(human.stdout).toMatch(/^olga@rewards\.test {2}"olga" {2}active {2}owner {2}enrolled \S+ {2}last sign-in \S+$/m);
      expect(human.stdout).toMatch(
        /^Sam\.Support@acme\.test {2}"Sam Support" {2}active {2}globex:program_manager {2}not enrolled \(link open until \S+\) {2}last sign-in never$/m,
      );
    },
    CLI_TIMEOUT,
  );

  it(
    'disable ends the sessions at once; enable lets the person in again; reset voids the factors and prints a new link',
    async () => {
      const person = await enrolStaff(t, 'dora@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      const disabled = await rewardsJson<{ sessionsEnded: number; staff: StaffView }>(t.database, [
        '--operator',
        'ops-alice',
        'staff',
        'disable',
        'dora@acme.test',
        '--reason',
        'left the company',
      ]);
      expect(disabled).toMatchObject({ sessionsEnded: 1, staff: { status: 'disabled' } });
      expect((await t.console('GET', consolePaths.me, { cookie: person.cookie })).statusCode).toBe(401);
      expect(
        (await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: 'Console-Test-2026' } })).statusCode,
      ).toBe(403);

      expect(
        (await rewardsJson<{ staff: StaffView }>(t.database, ['staff', 'enable', 'dora@acme.test', '--reason', 'came back'])).staff.status,
      ).toBe('active');
      const session = await signIn(t, person);

      const reset = await rewardsJson<{ sessionsEnded: number; enrolment: EnrolmentLink; staff: StaffView }>(t.database, [
        'staff',
        'reset',
        'dora@acme.test',
        '--reason',
        'lost her phone',
      ]);
      expect(reset).toMatchObject({ sessionsEnded: 1, staff: { enrolled: false } });
      expect((await t.console('GET', consolePaths.me, { cookie: session })).statusCode).toBe(401);
      const signInAfter = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: 'Console-Test-2026' } });
      expect([signInAfter.statusCode, consoleCookieOf(signInAfter)]).toEqual([401, undefined]);
      expect((await t.console('GET', consolePaths.enrolment, { token: tokenOf(reset.enrolment.url) })).json<EnrolmentView>()).toMatchObject(
        { email: 'dora@acme.test', step: 'password' },
      );

      expect((await audit('staff.disable')).at(-1)).toMatchObject({
        actor: 'ops-alice',
        subject: 'dora@acme.test',
        details: { reason: 'left the company', sessionsEnded: 1 },
      });
      expect((await audit('staff.enable')).at(-1)).toMatchObject({ details: { reason: 'came back' } });
      expect((await audit('staff.reset')).at(-1)).toMatchObject({ details: { reason: 'lost her phone', sessionsEnded: 1 } });
    },
    CLI_TIMEOUT,
  );
});
