import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import {
  consoleClientPaths as paths,
  type CatalogSettings,
  type CatalogSettingsReply,
  type PartnerRevokeReply,
  type PartnerSecretReply,
} from '@rewards/contract/console-clients';
import { buildApp } from '../../app.ts';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { authenticatePartner, partnerSecretHash } from '../catalog/partner-service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const ACME = 'acme';
const REASON = 'New shop vendor, contract 12';

/** The console's catalogs and partner secrets (issue 20 §3, part H), on both engines. */
describe.each(dialects)("the console's catalog settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const db = () => t.database.db;
  const get = (who: EnrolledStaff) => t.console('GET', paths.catalogSettings(ACME), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown) => t.console('PUT', paths.catalogSettings(ACME), { cookie: who.cookie, body });
  const rotate = (who: EnrolledStaff, partnerId: string, body: unknown = { reason: REASON }) =>
    t.console('POST', paths.partnerSecret(ACME, partnerId), { cookie: who.cookie, body });
  const hashOf = async (partnerId: string) =>
    (await db().selectFrom('catalog_partners').select('secret_hash').where('id', '=', partnerId).executeTakeFirst())?.secret_hash;
  const auditRows = () => db().selectFrom('audit_log').select(['id', 'action', 'details']).execute();

  it('sets a catalog with a new partner, whose secret is in the reply only; audited from and to without it', async () => {
    const before = (await get(auditor)).json<CatalogSettings>();
    const wanted = { url: 'https://shop.vendor.example/acme', partnerId: 'vendor-shop' };
    const body = { merchandise: wanted, experiences: before.experiences, reason: REASON };
    expect((await put(agent, body)).statusCode).toBe(403);
    expect((await put(auditor, body)).statusCode).toBe(403);

    const reply = await put(manager, body);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const set = reply.json<CatalogSettingsReply>();
    expect(set.merchandise).toEqual(wanted);
    expect(set.secrets).toHaveLength(1);
    const [issued] = set.secrets;
    expect(issued?.partnerId).toBe('vendor-shop');
    expect(issued?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await hashOf('vendor-shop')).toBe(partnerSecretHash(issued?.secret ?? ''));
    expect(set.partners.map((p) => p.id)).toContain('vendor-shop');

    const audit = (await auditRows()).find((row) => row.id === set.auditId);
    expect(audit?.details).not.toContain(issued?.secret);
    const details = JSON.parse(audit?.details ?? '{}') as Record<string, unknown>;
    expect(details['catalogs.merchandise']).toEqual({ from: before.merchandise, to: wanted });
    expect(details.partnerSecretsIssued).toEqual(['vendor-shop']);
    expect(details.reason).toBe(REASON);

    // Never again: not in the GET, and the same set writes nothing and issues nothing.
    expect((await get(manager)).body).not.toContain(issued?.secret);
    const again = (await put(manager, body)).json<CatalogSettingsReply>();
    expect(again).toMatchObject({ auditId: null, secrets: [] });

    // Withdrawn: the offering goes, the partner stays (it may serve again).
    const off = (await put(manager, { ...body, merchandise: null })).json<CatalogSettingsReply>();
    expect(off.merchandise).toBeNull();
    expect(off.partners.map((p) => p.id)).toContain('vendor-shop');
  });

  it('refuses what the command refuses with a 400 naming it, and changes nothing', async () => {
    await db()
      .insertInto('catalog_partners')
      .values({ id: 'globex-shop', client_id: OTHER_CLIENT_ID, name: 'Globex', secret_hash: 'x', created_at: new Date().toISOString() })
      .execute();
    const before = (await get(manager)).json<CatalogSettings>();
    const audits = (await auditRows()).length;
    const ok = { merchandise: before.merchandise, experiences: before.experiences, reason: REASON };
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...ok, merchandise: { url: 'javascript:alert(1)', partnerId: 'p1' } }, /the merchandise catalog: must be an http\(s\) URL/],
      [{ ...ok, experiences: { url: '//evil.example', partnerId: 'p1' } }, /the experiences catalog/],
      [{ ...ok, merchandise: { url: 'https://shop.example', partnerId: '-bad id' } }, /the merchandise partner: a partner id is/],
      [{ ...ok, merchandise: { url: 'https://shop.example', partnerId: 'globex-shop' } }, /belongs to another client/],
      [{ ...ok, merchandise: { url: 'https://shop.example' } }, undefined],
      [{ ...ok, reason: 'x' }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(manager, body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 160)).toBe(400);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get(manager)).json()).toEqual(before);
    expect((await auditRows()).length).toBe(audits);
    expect(await hashOf('p1')).toBeUndefined();
  });

  it("rotates a partner's secret behind a fresh second factor: shown once, the old one stops, audited without it", async () => {
    const partnerId = (await get(manager)).json<CatalogSettings>().partners[0]?.id ?? '';
    expect(partnerId).not.toBe('');
    const old = await hashOf(partnerId);
    expect((await rotate(agent, partnerId)).statusCode).toBe(403);
    expect((await rotate(auditor, partnerId)).statusCode).toBe(403);
    expect((await rotate(manager, partnerId, {})).statusCode).toBe(400);
    expect((await rotate(manager, 'globex-shop')).statusCode).toBe(404);
    expect(await hashOf('globex-shop')).toBe('x');

    const stale = new Date(Date.now() - 60 * 60_000).toISOString();
    await db().updateTable('staff_sessions').set({ second_factor_at: stale }).execute();
    try {
      const refused = await rotate(manager, partnerId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
      expect(await hashOf(partnerId)).toBe(old);
    } finally {
      await db().updateTable('staff_sessions').set({ second_factor_at: new Date().toISOString() }).execute();
    }

    const reply = await rotate(manager, partnerId);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const { secret, auditId } = reply.json<PartnerSecretReply>();
    expect(await hashOf(partnerId)).toBe(partnerSecretHash(secret));
    expect(await hashOf(partnerId)).not.toBe(old);
    const audit = (await auditRows()).find((row) => row.id === auditId);
    expect(audit?.action).toBe('clients.partner-secret');
    expect(audit?.details).not.toContain(secret);
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ partnerId, reason: REASON });
  });

  it('revokes a partner no catalog names: its secret stops, it is listed as revoked, and nothing names it again', async () => {
    const revoke = (who: EnrolledStaff, partnerId: string, body: unknown = { reason: 'Vendor left the program' }) =>
      t.console('POST', paths.partnerRevoke(ACME, partnerId), { cookie: who.cookie, body });
    const shop = { url: 'https://old-shop.example/acme', partnerId: 'old-shop' };
    const current = (await get(manager)).json<CatalogSettings>();
    const created = (
      await put(manager, { merchandise: shop, experiences: current.experiences, reason: REASON })
    ).json<CatalogSettingsReply>();
    const secret = created.secrets[0]?.secret ?? '';
    const basic = `Basic ${Buffer.from(`old-shop:${secret}`).toString('base64')}`;
    expect(await authenticatePartner(db(), ACME, basic)).toBe('old-shop');

    // Named by the merchandise catalog: refused, nothing changes.
    const audits = (await auditRows()).length;
    const named = await revoke(manager, 'old-shop');
    expect(named.statusCode).toBe(409);
    expect(named.json()).toMatchObject({
      errorCode: ErrorCode.catalogPartnerConflict,
      message: expect.stringMatching(/merchandise catalog names/),
      params: { partnerId: 'old-shop', catalogs: 'merchandise', reason: 'inUse' },
    });
    expect(await authenticatePartner(db(), ACME, basic)).toBe('old-shop');
    expect((await auditRows()).length).toBe(audits);

    await put(manager, { merchandise: current.merchandise, experiences: current.experiences, reason: REASON });
    expect((await revoke(agent, 'old-shop')).statusCode).toBe(403);
    expect((await revoke(auditor, 'old-shop')).statusCode).toBe(403);
    expect((await revoke(manager, 'old-shop', {})).statusCode).toBe(400);
    expect((await revoke(manager, 'globex-shop')).statusCode).toBe(404);

    const reply = await revoke(manager, 'old-shop');
    expect(reply.statusCode, reply.body).toBe(200);
    const { revokedAt, auditId } = reply.json<PartnerRevokeReply>();
    await expect(authenticatePartner(db(), ACME, basic)).rejects.toMatchObject({ statusCode: 401 });
    const audit = (await auditRows()).find((row) => row.id === auditId);
    expect(audit?.action).toBe('clients.partner-revoked');
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ partnerId: 'old-shop', reason: 'Vendor left the program' });
    expect((await get(auditor)).json<CatalogSettings>().partners.find((p) => p.id === 'old-shop')).toMatchObject({ revokedAt });

    // Revoked for good: no second revocation, no new secret, no catalog names it again.
    expect((await revoke(manager, 'old-shop')).statusCode).toBe(409);
    expect((await rotate(manager, 'old-shop')).json()).toMatchObject({ errorCode: ErrorCode.catalogPartnerConflict });
    const renamed = await put(manager, { merchandise: shop, experiences: current.experiences, reason: REASON });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json<{ message: string }>().message).toMatch(/old-shop was revoked/);
    expect((await get(manager)).json<CatalogSettings>().merchandise).toEqual(current.merchandise);
  });

  it('logs no secret, even at debug: a new partner and a rotation through an app that logs everything', async () => {
    let logs = '';
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const logged = await buildApp({ config: { ...t.config, logLevel: 'debug' }, db: db(), logStream });
    try {
      const call = (method: 'PUT' | 'POST', path: string, body: unknown) =>
        logged.inject({
          method,
          url: `${CONSOLE_API_BASE}${path}`,
          headers: {
            host: new URL(t.config.console.origin).host,
            origin: t.config.console.origin,
            'content-type': 'application/json',
            cookie: `rewards_console=${manager.cookie}`,
          },
          payload: JSON.stringify(body),
        });
      const set = await call('PUT', paths.catalogSettings(ACME), {
        merchandise: { url: 'https://shop.example/logged', partnerId: 'logged-shop' },
        experiences: null,
        reason: REASON,
      });
      expect(set.statusCode, set.body).toBe(200);
      const issued = set.json<CatalogSettingsReply>().secrets[0]?.secret ?? '';
      const rotated = await call('POST', paths.partnerSecret(ACME, 'logged-shop'), { reason: REASON });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const secret = rotated.json<PartnerSecretReply>().secret;
      expect(issued).not.toBe('');
      expect(logs).toContain('logged-shop');
      expect(logs).not.toContain(issued);
      expect(logs).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});
