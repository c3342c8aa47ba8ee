import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientData } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import { consoleClientPaths as paths, type BrandingReply, type BrandingSettings } from '@rewards/contract/console-clients';
import { createDatabase } from '../../db/database.ts';
import { appOver, type AppOver } from '../../../test/app-over.ts';
import { dialects } from '../../../test/databases.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const ACME = 'acme';
const REASON = 'Rebrand, ticket 20';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0f766e"/></svg>';
const drawing = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const svg = (text: string) => ({ type: 'image/svg+xml', base64: b64(text) });
const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const png = (width: number, height: number) => {
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return Buffer.concat([PNG_HEADER, size, Buffer.alloc(16)]);
};

/** The console's name, logo and brand colour (issue 20 §3, decision 065) through the API, on both engines. */
describe.each(dialects)("the console's branding settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const get = (who: EnrolledStaff, clientId = ACME) => t.console('GET', paths.brandingSettings(clientId), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown, clientId = ACME) =>
    t.console('PUT', paths.brandingSettings(clientId), { cookie: who.cookie, body });
  const audits = () =>
    t.database.db
      .selectFrom('audit_log')
      .select(['id', 'actor', 'details'])
      .where('action', '=', 'clients.settings')
      .where('client_id', '=', ACME)
      .execute();

  it('shows every role the branding; a program manager changes name, colour and logo with a reason, audited without the image', async () => {
    const before = (await get(owner)).json<BrandingSettings>();
    for (const who of [manager, agent, auditor]) {
      const reply = await get(who);
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toEqual(before);
    }
    expect(before.logo.type).toMatch(/^image\//);
    for (const who of [agent, auditor])
      expect((await put(who, { name: 'Nope', brandColor: '#000000', reason: REASON })).statusCode).toBe(403);
    expect(await audits()).toEqual([]);

    const set = await put(manager, {
      name: '  Acme Stars  ',
      brandColor: '#0F766E',
      logo: { type: 'image/svg+xml', base64: b64(SVG) },
      reason: REASON,
    });
    expect(set.statusCode, set.body).toBe(200);
    const reply = set.json<BrandingReply>();
    expect(reply).toMatchObject({ name: 'Acme Stars', brandColor: '#0f766e', logo: { type: 'image/svg+xml', base64: b64(SVG) } });
    const [audit, ...more] = await audits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ id: reply.auditId, actor: manager.email });
    const details = JSON.parse(audit!.details) as Record<string, { from: string; to: string }>;
    expect(details.name).toEqual({ from: before.name, to: 'Acme Stars' });
    expect(details.brandColor).toEqual({ from: before.brandColor, to: '#0f766e' });
    expect(details.logo!.from).toMatch(/^[\w-]{12}$/);
    expect(details.logo!.to).toMatch(/^[\w-]{12}$/);
    expect(audit!.details).not.toContain('<svg');
    expect(details.reason).toBe(REASON);

    // The same again: nothing written. A PNG is kept as it came.
    const again = await put(manager, { name: 'Acme Stars', brandColor: '#0f766e', reason: REASON });
    expect(again.json<BrandingReply>().auditId).toBeNull();
    const withPng = await put(manager, {
      name: 'Acme Stars',
      brandColor: '#0f766e',
      logo: { type: 'image/png', base64: b64(png(64, 40)) },
      reason: REASON,
    });
    expect(withPng.json<BrandingReply>().logo).toEqual({ type: 'image/png', base64: b64(png(64, 40)) });
    expect(await audits()).toHaveLength(2);
  });

  it('refuses what the command refuses with a 400 naming it, and changes nothing', async () => {
    const before = (await get(manager)).json();
    const ok = { name: 'Acme', brandColor: '#123456', reason: REASON };
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...ok, brandColor: 'blue' }, /colour such as #1d4ed8/],
      [{ ...ok, brandColor: '#12345' }, /colour/],
      [{ ...ok, name: '   ' }, /must not be empty/],
      [{ ...ok, name: 'a\u0007b' }, /control characters/],
      [{ ...ok, name: 'x'.repeat(101) }, /at most 100/],
      [
        { ...ok, logo: svg('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') },
        /refused: the attribute onload on <svg> \(event handlers/,
      ],
      // Issue 27 §4 B: what the pattern of old let through.
      [
        { ...ok, logo: svg(drawing('<a href="&#106;avascript:alert(1)"><text>x</text></a>')) },
        /^the logo was refused: <a> \(links are not allowed\)/,
      ],
      [
        { ...ok, logo: svg(drawing('<use href="&#106;avascript:alert(1)"/>')) },
        /refused: href="javascript:alert\(1\)" on <use> \(references may only point within the image/,
      ],
      [
        { ...ok, logo: svg(drawing('<rect width="9" height="9"><set attributeName="onmouseover" to="alert(1)"/></rect>')) },
        /refused: <set> \(animation is not allowed\)/,
      ],
      [
        { ...ok, logo: svg(drawing('<image href="https://evil.example/x.png"/>')) },
        /refused: <image> \(images and embedded content are not allowed/,
      ],
      [
        { ...ok, logo: svg(drawing('<style>@import url(https://evil.example/x.css);</style>')) },
        /refused: @import in <style> \(CSS at-rules are not allowed/,
      ],
      [{ ...ok, logo: svg('<svg xmlns="http://www.w3.org/2000/svg"><rect</svg>') }, /^the logo is not well-formed XML \(1:/],
      [{ ...ok, logo: { type: 'image/svg+xml', base64: b64('<html></html>') } }, /not an SVG image/],
      [{ ...ok, logo: { type: 'image/png', base64: b64(SVG) } }, /the logo is not a PNG image/],
      [{ ...ok, logo: { type: 'image/png', base64: b64(png(5000, 10)) } }, /at most 4096 px a side/],
      [{ ...ok, logo: { type: 'image/png', base64: 'not*base64!' } }, /not base64/],
      [{ ...ok, logo: { type: 'image/gif', base64: b64('GIF89a') } }, undefined],
      [{ ...ok, logo: { type: 'image/svg+xml', base64: 'A'.repeat(400_000) } }, /bytes; a logo must be 1 byte to 256 KB/],
      [{ ...ok, reason: 'no' }, undefined],
      [{ name: 'Acme', brandColor: '#123456' }, undefined],
      [{ brandColor: '#123456', reason: REASON }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(manager, body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(reply.body).not.toMatch(/stack|select |at \//i);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get(manager)).json()).toEqual(before);
  });

  it("answers 403 in another's client and 404 for a client that does not exist; an owner changes any", async () => {
    expect((await get(manager, 'globex')).statusCode).toBe(403);
    expect((await put(manager, { name: 'X', brandColor: '#000000', reason: REASON }, 'globex')).statusCode).toBe(403);
    expect((await get(owner, 'nowhere')).statusCode).toBe(404);
    expect((await put(owner, { name: 'X', brandColor: '#000000', reason: REASON }, 'nowhere')).statusCode).toBe(404);
    expect((await put(owner, { name: 'Globex Gold', brandColor: '#b45309', reason: REASON }, 'globex')).statusCode).toBe(200);
    expect((await get(owner, 'globex')).json()).toMatchObject({ name: 'Globex Gold', brandColor: '#b45309' });
  });

  it('shows on another portal process over the same database within CLIENT_CACHE_SECONDS', async () => {
    const cacheSeconds = 2;
    // A second Db object is a second process's worth of read caches (db/read-cache.ts).
    const db = createDatabase(t.database.config);
    const other: AppOver = await appOver({ ...t.database, db }, { CLIENT_CACHE_SECONDS: String(cacheSeconds) });
    try {
      const colour = async () => (await other.api('GET', apiPaths.clientData)).json<ClientData>().clientBranding.brandColor;
      const first = await colour();
      const next = first === '#7c3aed' ? '#be123c' : '#7c3aed';
      const saved = Date.now();
      expect((await put(manager, { name: 'Acme', brandColor: next, reason: REASON })).statusCode).toBe(200);
      const deadline = saved + cacheSeconds * 1000 + 1500;
      let seen = await colour();
      while (seen !== next && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await colour();
      }
      expect(seen).toBe(next);
    } finally {
      await other.close();
      await db.destroy();
    }
  });
});
