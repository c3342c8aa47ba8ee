// Decision 072: the demo's published credentials, found as a production start looks for them and
// taken away by `rewards demo remove`, on both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, PARTNER_API_BASE, partnerPaths } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { runRewards } from '../../../test/cli.ts';
import { createTestApp, DEMO_ORIGIN, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';
import { hashPassword, verifyPassword } from '../../modules/auth/password.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from './demo-catalog.ts';
import { findPublishedDemoCredentials } from './demo-credentials.ts';
import { DEMO_CLIENT_ID, demoParticipantKeys } from './demo.ts';
import { NEIGHBOUR_CLIENT_ID } from './demo-neighbour.ts';
import { addMissingDemoStaff, DEMO_STAFF } from './demo-staff.ts';

const DEMO_AUTH = `Basic ${Buffer.from(`${DEMO_CATALOG_PARTNER_ID}:${DEMO_CATALOG_PARTNER_SECRET}`).toString('base64')}`;
const DEMO_EMAILS = DEMO_STAFF.map((person) => person.email).sort();
/** Production, at OWASP's hashing cost: the test runs' cheap one (vitest.config.ts) is refused there (decision 088). */
const PRODUCTION = { NODE_ENV: 'production', PASSWORD_HASH_COST: 'owasp' };

describe.each(dialects)('the demo credentials on %s', (dialect) => {
  let t: TestApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'rewards-demo-credentials-'));
  const rewards = (args: string[], env: Record<string, string> = {}) =>
    runRewards(t.database, args, { env: { DATA_DIR: dataDir, ...env } });

  beforeAll(async () => {
    // The demo program and a second client; the console's demo staff as a new embedded database gets them.
    t = await createTestApp(dialect);
    await addMissingDemoStaff(t.database.db, dataDir);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const debit = () =>
    t.app.inject({
      method: 'POST',
      url: `${PARTNER_API_BASE}${partnerPaths.debits}`,
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: DEMO_ORIGIN, authorization: DEMO_AUTH },
      payload: JSON.stringify({ orderId: `shop-${Date.now()}`, participantId: 'nobody', points: 1, description: 'Mug' }),
    });

  it('names every participant the seed makes, in both demo programs', async () => {
    const seeded = await t.database.db
      .selectFrom('participants')
      .select(['client_id', 'username_key'])
      .where('client_id', 'in', [DEMO_CLIENT_ID, NEIGHBOUR_CLIENT_ID])
      .execute();
    const named = demoParticipantKeys().flatMap(({ clientId, usernameKeys }) => usernameKeys.map((key) => `${clientId}/${key}`));
    expect(named.sort()).toEqual(seeded.map((p) => `${p.client_id}/${p.username_key}`).sort());
  });

  it('finds the demo staff, the partner with the public secret and the participants with the published password', async () => {
    // Sam chose a password of his own: his hash is not the seed's any more.
    await t.database.db
      .updateTable('participants')
      .set({ password_hash: await hashPassword('Sams-Own-Pass-77') })
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username_key', '=', 'spent')
      .execute();
    const found = await findPublishedDemoCredentials(t.database.db);
    expect(found.staff).toEqual(DEMO_EMAILS);
    expect(found.partners).toEqual([{ id: DEMO_CATALOG_PARTNER_ID, clientId: DEMO_CLIENT_ID }]);
    // Eight in Acme and four in Nimbus, Sam aside; the other client's participant has a hash of their own.
    expect(found.participants).toBe(11);
    expect(found.passwordHashes).toHaveLength(1);

    const check = await rewards(['demo', 'check', '--json']);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ published: true, participants: 11, partners: [{ id: DEMO_CATALOG_PARTNER_ID }] });
  });

  it('refuses to seed the demo in production, and a removal without a reason', async () => {
    const seed = await rewards(['seed-demo'], PRODUCTION);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('never seeded with NODE_ENV=production');
    const noReason = await rewards(['demo', 'remove']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const shortReason = await rewards(['demo', 'remove', '--reason', ' x ']);
    expect(shortReason.code).toBe(2);
    expect(await findPublishedDemoCredentials(t.database.db)).toMatchObject({ participants: 11 });
  });

  it('removes them all in one audited change: nobody gets in with the README any more, and the rest stays', async () => {
    const session = (await t.login('demo')).sessionId;
    const other = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await debit()).statusCode).not.toBe(401);

    const run = await rewards(['demo', 'remove', '--reason', 'going live', '--operator', 'olga'], PRODUCTION);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`demo staff deleted: ${DEMO_EMAILS.join(', ')}`);
    expect(run.stdout).toContain('rewards staff create <email> --name <name> --owner --reason <text>');

    expect(await findPublishedDemoCredentials(t.database.db)).toEqual({ staff: [], partners: [], participants: 0, passwordHashes: [] });
    // Sign-in with the published password, the session it opened, the partner's public secret: all refused.
    expect((await t.api('POST', '/login', { body: { username: 'demo', password: DEMO_PASSWORD } })).statusCode).toBe(401);
    expect((await t.api('GET', '/user', { session })).statusCode).toBe(401);
    expect((await debit()).statusCode).toBe(401);
    // The demo catalog's catalogs are withdrawn; the partner row stays, revoked, for its orders.
    expect(await t.database.db.selectFrom('client_catalogs').select('url').where('client_id', '=', DEMO_CLIENT_ID).execute()).toEqual([]);
    const partner = await t.database.db
      .selectFrom('catalog_partners')
      .selectAll()
      .where('id', '=', DEMO_CATALOG_PARTNER_ID)
      .executeTakeFirstOrThrow();
    expect(partner).toMatchObject({ secret_hash: '', revoked_at: expect.any(String) });
    expect(await t.database.db.selectFrom('staff').select('email').execute()).toEqual([]);
    // The demo participants stay, with a password nobody knows; Sam keeps his own; the other client is untouched.
    const acme = await t.database.db
      .selectFrom('participants')
      .select(['username', 'password_hash', 'balance'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .execute();
    expect(acme).toHaveLength(8);
    expect(acme.find((p) => p.username === 'demo')?.balance).toBe(12_500);
    for (const p of acme) expect(await verifyPassword(p.password_hash, DEMO_PASSWORD)).toBe(false);
    expect(await verifyPassword(acme.find((p) => p.username === 'spent')?.password_hash ?? '', 'Sams-Own-Pass-77')).toBe(true);
    expect((await t.api('GET', '/user', { session: other.sessionId, origin: OTHER_ORIGIN })).statusCode).toBe(200);

    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'demo.remove').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ client_id: null, actor: 'olga', actor_kind: 'operator' });
    expect(JSON.parse(audit[0]?.details ?? '{}')).toEqual({
      staffRemoved: DEMO_EMAILS,
      partnersRevoked: [DEMO_CATALOG_PARTNER_ID],
      catalogsWithdrawn: 3,
      participantsLocked: 11,
      sessionsEnded: 1,
      reason: 'going live',
    });
  });

  it('finds nothing to remove the second time, and writes nothing', async () => {
    const again = await rewards(['demo', 'remove', '--reason', 'once more']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No demo credentials to remove.');
    expect(await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'demo.remove').execute()).toHaveLength(1);
    const check = await rewards(['demo', 'check']);
    expect(check.stdout).toContain('No demo credentials');
  });
});
