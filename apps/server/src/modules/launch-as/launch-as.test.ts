import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_API_BASE, ErrorCode, SESSION_HEADER, adminPaths, apiPaths, type LaunchTokenReply, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, DEMO_ORIGIN, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { listAudit } from '../audit/service.ts';
import { findParticipantByUsername } from '../participants/store.ts';
import { startSession } from '../sessions/service.ts';
import { createAdminKey } from './admin-keys.ts';
import { issueLaunchToken } from './service.ts';
import { setLaunchSession } from './store.ts';

/** CLI runs are a process each; on a busy machine a few of them take seconds. */
const CLI_TIMEOUT = 90_000;

/** Issue 9, section 2: launch links from the command and from the admin API, used once, audited. */
describe.each(dialects)('launch-as on %s', (dialect) => {
  let t: TestApp;
  const keys: Record<'acme' | 'globex' | 'all', string> = { acme: '', globex: '', all: '' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A link from the operator command, as a support administrator asks for it. */
  async function cliLink(username = 'demo'): Promise<{ url: string; token: string; expiresAt: string }> {
    const issued = await rewardsJson<{ url: string; expiresAt: string }>(t.database, [
      'launch-as',
      username,
      '--client',
      'acme',
      '--admin',
      'alice',
      '--reason',
      'ticket 4711',
    ]);
    return { ...issued, token: new URL(issued.url).searchParams.get('token') ?? '' };
  }
  /** The same link made in-process (a CLI run costs a process; one test shows the command). */
  async function link(username = 'demo', clientId = 'acme'): Promise<{ token: string }> {
    const participant = await findParticipantByUsername(t.database.db, clientId, username);
    if (!participant) throw new Error(`no ${username}`);
    return t.database.db.transaction().execute((trx) =>
      issueLaunchToken(trx, {
        participant,
        reason: 'ticket 4712',
        issuedBy: 'bob',
        issuedVia: 'cli',
        actorKind: 'operator',
        issuedFrom: 'cli@test',
        origin: DEMO_ORIGIN,
      }),
    );
  }
  const launch = (token: string, origin = DEMO_ORIGIN) => t.api('POST', apiPaths.launchAs, { body: { token }, origin });
  const tokenRow = (token: string) =>
    t.database.db.selectFrom('launch_tokens').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirstOrThrow();
  const sessionCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(
    'opens the participant once from a link the command printed, for at most 30 minutes, and audits it',
    { timeout: CLI_TIMEOUT },
    async () => {
      const { url, token, expiresAt } = await cliLink();
      expect(url).toMatch(/^http:\/\/localhost:3000\/launch-as\?token=[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 60_000);

      const first = await launch(token);
      expect(first.statusCode).toBe(200);
      const user = first.json<UserData>();
      expect(user).toMatchObject({ authenticated: true, userName: 'demo', adminAsUser: true });
      expect(first.headers[SESSION_HEADER]).toBe(user.sessionId);

      // The session is marked and capped: 30 minutes at most, whatever the policy allows others.
      const session = await t.database.db.selectFrom('sessions').selectAll().where('admin_as_user', '=', 1).executeTakeFirstOrThrow();
      expect(Date.parse(session.absolute_expires_at) - Date.parse(session.created_at)).toBeLessThanOrEqual(30 * 60_000);
      expect(Date.parse(session.idle_expires_at)).toBeLessThanOrEqual(Date.parse(session.absolute_expires_at));

      const row = await tokenRow(token);
      expect(row).toMatchObject({
        issued_by: 'alice',
        issued_via: 'cli',
        reason: 'ticket 4711',
        used_from: '127.0.0.1',
        session_hash: session.id_hash,
      });
      expect(row.used_at).not.toBeNull();

      // The same link again: refused, and no second session.
      const sessions = await sessionCount();
      const second = await launch(token);
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ errorCode: ErrorCode.launchTokenUsed, responseMessage: 'launchAs.error.used' });
      expect(await sessionCount()).toBe(sessions);

      // What the administrator opens is recorded, without bodies, readable with `rewards audit`.
      expect((await t.api('GET', apiPaths.user, { session: user.sessionId })).statusCode).toBe(200);
      // The open is recorded by an onResponse hook, after the reply is out: its row, then the command.
      await vi.waitFor(
        async () =>
          expect(await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'launch-as.open').execute()).toHaveLength(1),
        { timeout: 10_000 },
      );
      const audit = await rewardsJson<
        Array<{ actor: string; action: string; subject: string; details: Record<string, unknown>; origin: string }>
      >(t.database, ['audit', '--client', 'acme', '--action', 'launch-as']);
      expect(audit.map((e) => e.action)).toEqual(['launch-as.open', 'launch-as.use', 'launch-as.issue']);
      expect(audit[0]).toMatchObject({
        actor: 'alice',
        subject: 'demo',
        details: { method: 'GET', route: '/api/v1.0/user', status: 200 },
        origin: '127.0.0.1',
      });
      expect(audit[1]).toMatchObject({ actor: 'alice', subject: 'demo', details: { reason: 'ticket 4711' }, origin: '127.0.0.1' });
      expect(audit[2]).toMatchObject({ actor: 'alice', subject: 'demo', details: { reason: 'ticket 4711', via: 'cli' } });
      expect(audit[2]?.origin).toMatch(/^cli@/);
    },
  );

  it('refuses an expired, unknown or foreign link with its own message, and opens no session', async () => {
    const sessions = await sessionCount();
    const expired = await link();
    await t.database.db
      .updateTable('launch_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256Hex(expired.token))
      .execute();
    const late = await launch(expired.token);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ errorCode: ErrorCode.launchTokenExpired, responseMessage: 'launchAs.error.expired' });
    expect((await tokenRow(expired.token)).used_at).toBeNull();

    const unknown = await launch('x'.repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errorCode: ErrorCode.launchTokenInvalid, responseMessage: 'launchAs.error.invalid' });
    expect((await launch('')).statusCode).toBe(400);
    expect((await launch('y'.repeat(500))).json()).toMatchObject({ errorCode: ErrorCode.validation });

    // acme's link on globex's site is unknown there, and stays good on acme's own.
    const acmeLink = await link();
    const foreign = await launch(acmeLink.token, OTHER_ORIGIN);
    expect(foreign.json()).toMatchObject({ errorCode: ErrorCode.launchTokenInvalid });
    expect(await sessionCount()).toBe(sessions);
    expect((await launch(acmeLink.token)).statusCode).toBe(200);
  });

  it('opens one session when the same link is posted twice at once', async () => {
    const { token } = await link('spent');
    const replies = await Promise.all([launch(token), launch(token), launch(token)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it('creates, lists and revokes admin keys; a key is shown once and never listed', { timeout: CLI_TIMEOUT }, async () => {
    const acme = await rewardsJson<{ key: string; id: string; client: string }>(t.database, [
      'admins',
      'create',
      '--name',
      'helpdesk',
      '--client',
      'acme',
      '--operator',
      'ops-anna',
    ]);
    const globex = await t.database.db
      .transaction()
      .execute((trx) => createAdminKey(trx, { name: 'globex-desk', clientId: OTHER_CLIENT_ID, createdBy: 'test', origin: 'test' }));
    const all = await rewardsJson<{ key: string }>(t.database, ['admins', 'create', '--name', 'central-desk', '--all-clients']);
    expect(acme).toMatchObject({ client: 'acme', key: expect.stringMatching(/^rk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/) });
    keys.acme = acme.key;
    keys.globex = globex.key;
    keys.all = all.key;

    const both = await runRewards(t.database, ['admins', 'create', '--name', 'helpdesk', '--client', 'acme', '--all-clients']);
    expect(both.code).toBe(2);

    const list = await runRewards(t.database, ['admins', 'list']);
    expect(list.stdout).toContain('helpdesk');
    expect(list.stdout).toContain('all clients');
    // The secret is the last 43 characters (it may itself contain '_').
    for (const key of Object.values(keys)) expect(list.stdout).not.toContain(key.slice(-43));
    const stored = await t.database.db.selectFrom('admin_keys').select('key_hash').execute();
    for (const { key_hash } of stored) expect(Object.values(keys).some((k) => k.includes(key_hash))).toBe(false);

    const audit = await listAudit(t.database.db, { action: 'admins', limit: 10 });
    expect(audit.find((e) => e.subject === 'helpdesk')).toMatchObject({ actor: 'ops-anna', action: 'admins.create', client_id: 'acme' });
    expect(JSON.stringify(audit)).not.toContain(keys.acme.slice(-43));
  });

  /** The admin API as a support desk's tool calls it: no client-id header, a bearer key. */
  const adminCall = (body: unknown, key?: string, ip = '10.0.0.7') =>
    t.app.inject({
      method: 'POST',
      url: `${ADMIN_API_BASE}${adminPaths.launchTokens}`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      payload: JSON.stringify(body),
    });

  it(
    'issues links through the admin API to a key of the client, and audits who, for whom, why and from where',
    { timeout: CLI_TIMEOUT },
    async () => {
      const reply = await adminCall({ username: 'demo', reason: 'ticket 99' }, keys.acme);
      expect(reply.statusCode).toBe(201);
      const issued = reply.json<LaunchTokenReply>();
      expect(issued.url).toBe(`http://localhost:3000/launch-as?token=${issued.token}`);
      expect((await launch(issued.token)).json<UserData>()).toMatchObject({ userName: 'demo', adminAsUser: true });

      const [entry] = await listAudit(t.database.db, { clientId: 'acme', action: 'launch-as.issue', limit: 1 });
      expect(entry).toMatchObject({ actor: 'helpdesk', actor_kind: 'admin', subject: 'demo', origin: '10.0.0.7' });
      expect(JSON.parse(entry?.details ?? '{}')).toMatchObject({ reason: 'ticket 99', via: 'api' });
      expect(JSON.stringify(entry)).not.toContain(issued.token);

      // A key of every client names the client; a globex link lives on globex's origin.
      expect((await adminCall({ username: 'demo', reason: 'ticket 100' }, keys.all)).statusCode).toBe(400);
      const globexLink = (
        await adminCall({ username: 'demo', reason: 'ticket 100', client: OTHER_CLIENT_ID }, keys.all)
      ).json<LaunchTokenReply>();
      expect(globexLink.url).toMatch(/^https:\/\/rewards\.globex\.example\/launch-as\?token=/);
      expect((await launch(globexLink.token, DEMO_ORIGIN)).statusCode).toBe(400);
      expect((await launch(globexLink.token, OTHER_ORIGIN)).json<UserData>()).toMatchObject({ firstName: 'Gina', adminAsUser: true });

      const listed = await rewardsJson<Array<{ name: string; lastUsedAt: string | null }>>(t.database, ['admins', 'list']);
      expect(listed.find((k) => k.name === 'helpdesk')?.lastUsedAt).not.toBeNull();
    },
  );

  it(
    'answers 401 to a missing, bad or revoked key alike, 403 to another client, 404 to an unknown participant, 400 without a reason',
    { timeout: CLI_TIMEOUT },
    async () => {
      const missing = await adminCall({ username: 'demo', reason: 'ticket 1' });
      const malformed = await adminCall({ username: 'demo', reason: 'ticket 1' }, 'not-a-key');
      const wrongSecret = await adminCall({ username: 'demo', reason: 'ticket 1' }, `${keys.acme.slice(0, -4)}AAAA`);
      expect([missing.statusCode, malformed.statusCode, wrongSecret.statusCode]).toEqual([401, 401, 401]);
      expect(new Set([missing.body, malformed.body, wrongSecret.body]).size).toBe(1);
      // Without a good key the body is not even looked at.
      expect((await adminCall({}, 'not-a-key')).statusCode).toBe(401);

      expect((await adminCall({ username: 'demo', reason: 'ticket 1', client: 'acme' }, keys.globex)).statusCode).toBe(403);
      expect((await adminCall({ username: 'nobody', reason: 'ticket 1' }, keys.acme)).statusCode).toBe(404);
      expect((await adminCall({ username: 'demo' }, keys.acme)).statusCode).toBe(400);
      expect((await adminCall({ username: 'demo', reason: 'ticket 1', client: 'initech' }, keys.all)).statusCode).toBe(404);

      const revoked = await runRewards(t.database, ['admins', 'revoke', 'helpdesk']);
      expect(revoked.stdout).toContain('Revoked admin key "helpdesk"');
      const afterRevoke = await adminCall({ username: 'demo', reason: 'ticket 1' }, keys.acme);
      expect(afterRevoke.statusCode).toBe(401);
      expect(afterRevoke.body).toBe(missing.body);
      expect((await listAudit(t.database.db, { action: 'admins.revoke', limit: 1 }))[0]).toMatchObject({ subject: 'helpdesk' });
    },
  );

  it('slows down an address that keeps sending bad keys', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1)
      statuses.push((await adminCall({ username: 'demo', reason: 'x' }, 'rk_000000000000_bad', '10.9.9.9')).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect((await adminCall({ username: 'demo', reason: 'ticket 1' }, keys.all, '10.9.9.10')).statusCode).toBe(400);
  });

  it('audits a launched session under whoever launched it, looking that up until it is found (a miss is not kept)', async () => {
    const db = t.database.db;
    const participant = await findParticipantByUsername(db, 'acme', 'demo');
    if (!participant) throw new Error('no demo');
    const issuedBy = `carol-${randomUUID()}`;
    // A session marked admin-as-user whose launch is not recorded yet (launchAs writes both at once).
    const { sessionId, session } = await startSession(db, { idleMinutes: 30, maxHours: 0.5 }, 'acme', participant.id, true);
    const opened = (count: number) =>
      vi.waitFor(
        async () => {
          const rows = await db
            .selectFrom('audit_log')
            .select(['actor', 'subject', 'details'])
            .where('action', '=', 'launch-as.open')
            .where('actor', 'in', ['unknown', issuedBy])
            .execute();
          expect(rows).toHaveLength(count);
          return rows;
        },
        { timeout: 10_000 },
      );

    expect((await t.api('GET', apiPaths.user, { session: sessionId })).statusCode).toBe(200);
    expect(await opened(1)).toEqual([expect.objectContaining({ actor: 'unknown', subject: participant.id })]);

    // Its launch is recorded now: the next request is audited under the administrator, not "unknown" again.
    const { token } = await db.transaction().execute((trx) =>
      issueLaunchToken(trx, {
        participant,
        reason: 'ticket 4713',
        issuedBy,
        issuedVia: 'cli',
        actorKind: 'operator',
        issuedFrom: 'cli@test',
        origin: DEMO_ORIGIN,
      }),
    );
    const row = await tokenRow(token);
    await setLaunchSession(db, row.id, session.id_hash);
    const replies = await Promise.all([1, 2, 3].map(() => t.api('GET', apiPaths.user, { session: sessionId })));
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200]);
    const rows = await opened(4);
    expect(rows.filter((r) => r.actor === issuedBy && r.subject === 'demo')).toHaveLength(3);
    for (const r of rows.filter((r) => r.actor === issuedBy)) expect(JSON.parse(r.details)).toMatchObject({ token: row.id });
  });
});

function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
