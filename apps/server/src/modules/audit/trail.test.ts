import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleAuditPage, consoleAuditPaths } from '@rewards/contract/console-participants';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { recordAudit } from './service.ts';
import { auditTrailCsv } from './trail.ts';

const OWN = 'acme';
const OTHER = OTHER_CLIENT_ID;

describe.each(dialects)('the console audit trail on %s', (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let agent: EnrolledStaff;
  let demoId: string;
  /** Our entries only: enrolment writes some of its own. */
  const ours = (page: ConsoleAuditPage) => page.entries.filter((e) => e.details.test === true).map((e) => e.subject);

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: OWN, role: 'support_agent' }] });
    demoId = (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', OWN)
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow()
    ).id;
    const db = t.database.db;
    const at = (iso: string) => new Date(iso);
    await recordAudit(
      db,
      {
        clientId: OWN,
        actor: 'Agent@Acme.test',
        actorKind: 'staff',
        action: 'points.adjust',
        subject: 'demo',
        origin: '10.0.0.1',
        details: { test: true, reason: 'ticket 1', points: 250 },
      },
      at('2026-11-20T10:00:00.000Z'),
    );
    await recordAudit(
      db,
      {
        clientId: OWN,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'participants.status',
        subject: 'spent',
        origin: 'cli@host',
        details: { test: true, reason: 'left' },
      },
      at('2026-11-21T23:59:59.999Z'),
    );
    await recordAudit(
      db,
      { clientId: OWN, actor: 'ops@host', actorKind: 'operator', action: 'launch-as.open', subject: demoId, details: { test: true } },
      at('2026-11-22T00:00:00.000Z'),
    );
    await recordAudit(
      db,
      {
        clientId: OWN,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'points.adjust',
        subject: '=HYPERLINK("http://evil.example","x")',
        details: { test: true, reason: '+cmd|calc' },
      },
      at('2026-11-23T08:00:00.000Z'),
    );
    await recordAudit(
      db,
      {
        clientId: OTHER,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'points.adjust',
        subject: 'globex-person',
        details: { test: true },
      },
      at('2026-11-22T12:00:00.000Z'),
    );
    await recordAudit(
      db,
      {
        clientId: null,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'admins.create',
        subject: 'installation-key',
        details: { test: true },
      },
      at('2026-11-19T12:00:00.000Z'),
    );
  });
  afterAll(() => t.close());

  const trail = (query: string, who: EnrolledStaff) => t.console('GET', `${consoleAuditPaths.entries}?${query}`, { cookie: who.cookie });
  const subjects = async (query: string, who: EnrolledStaff) => {
    const reply = await trail(query, who);
    expect(reply.statusCode, reply.body).toBe(200);
    return ours(ConsoleAuditPage.parse(reply.json()));
  };

  it('shows an owner everything, newest first; others only the clients they hold a role in', async () => {
    expect(await subjects('', owner)).toEqual([
      '=HYPERLINK("http://evil.example","x")',
      'globex-person',
      demoId,
      'spent',
      'demo',
      'installation-key',
    ]);
    expect(await subjects('', agent)).toEqual(['=HYPERLINK("http://evil.example","x")', demoId, 'spent', 'demo']);
    expect(await subjects(`clientId=${OTHER}`, owner)).toEqual(['globex-person']);
    expect((await trail(`clientId=${OTHER}`, agent)).statusCode).toBe(403);
    expect((await trail('clientId=nowhere', agent)).statusCode).toBe(403);
  });

  it('filters by staff (a prefix, any case), action prefix, participant and dates (to inclusive of its day)', async () => {
    expect(await subjects('staff=agent%40ACME', agent)).toEqual(['demo']);
    expect(await subjects('action=participants', agent)).toEqual(['spent']);
    expect(await subjects('action=points&clientId=acme', owner)).toEqual(['=HYPERLINK("http://evil.example","x")', 'demo']);
    // A participant's entries whether recorded under their username or their id.
    expect(await subjects(`participantId=${demoId}`, agent)).toEqual([demoId, 'demo']);
    expect(await subjects('from=2026-11-21&to=2026-11-21', agent)).toEqual(['spent']);
    expect(await subjects('from=2026-11-21T12:00:00Z&to=2026-11-22T00:00:00.000Z', agent)).toEqual([demoId, 'spent']);
    expect(await subjects('to=2026-11-20', owner)).toEqual(['demo', 'installation-key']);
  });

  it('refuses bad dates and cursors with 400', async () => {
    for (const query of [
      'from=2026-13-01',
      'from=2026-02-31',
      'to=yesterday',
      'from=2026-11-22&to=2026-11-21',
      'from=2026-11-21T10:00',
      'after=%%%',
      'after=bm90LWpzb24',
      'limit=0',
      'limit=201',
      'staff=%00',
    ]) {
      expect([query, (await trail(query, agent)).statusCode]).toEqual([query, 400]);
    }
  });

  it('pages newest first through the cursor, each entry once', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: ConsoleAuditPage = ConsoleAuditPage.parse(
        (await trail(`limit=2&clientId=acme${after ? `&after=${after}` : ''}`, owner)).json(),
      );
      seen.push(...page.entries.map((e) => e.id));
      after = page.next;
    } while (after !== null);
    const all = ConsoleAuditPage.parse((await trail('limit=200&clientId=acme', owner)).json()).entries.map((e) => e.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('exports the same entries as a CSV download, formulas neutralised, scoped like the pages', async () => {
    const reply = await t.console('GET', `${consoleAuditPaths.csv}?action=points`, { cookie: agent.cookie });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = reply.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('at,client,actor,actor_kind,action,subject,origin,reason,details');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      `2026-11-23T08:00:00.000Z,acme,ops@host,operator,points.adjust,"'=HYPERLINK(""http://evil.example"",""x"")",,'+cmd|calc,"{""test"":true}"`,
    );
    expect(lines[2]).toBe(
      '2026-11-20T10:00:00.000Z,acme,Agent@Acme.test,staff,points.adjust,demo,10.0.0.1,ticket 1,"{""test"":true,""points"":250}"',
    );
    expect(reply.body).not.toContain('globex-person');
    expect((await t.console('GET', `${consoleAuditPaths.csv}?from=nope`, { cookie: agent.cookie })).statusCode).toBe(400);
    expect((await t.console('GET', `${consoleAuditPaths.csv}?clientId=${OTHER}`, { cookie: agent.cookie })).statusCode).toBe(403);
  });

  it('stops a CSV at its cap', async () => {
    const chunks: string[] = [];
    for await (const chunk of auditTrailCsv(t.database.db, { clients: 'all' }, 3)) chunks.push(chunk);
    expect(chunks.join('').trimEnd().split('\r\n')).toHaveLength(4);
  });
});
