import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API_BASE, consolePaths, type StaffMe, type StaffSignInReply } from '@rewards/contract/console';
import { appOver, type AppOver } from '../../../test/app-over.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { totpCode } from '../../modules/staff/secrets.ts';
import { seedDemo } from './demo.ts';
import { addMissingDemoStaff, DEMO_STAFF, DEMO_STAFF_PASSWORD } from './demo-staff.ts';

/** The README's console accounts work as written: password, then the code of the README's secret. */
describe.each(dialects)("the demo's console staff on %s", (dialect) => {
  let database: TestDatabase;
  let portal: AppOver;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-demo-staff-'));
    database = await createTestDatabase(dialect);
    await seedDemo(database.db, new Date(), { dataDir });
    portal = await appOver(database, { DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await portal.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, cookie?: string) =>
    portal.app.inject({
      method: 'POST',
      url: `${CONSOLE_API_BASE}${path}`,
      headers: {
        host: 'console.localhost:3000',
        origin: 'http://console.localhost:3000',
        'content-type': 'application/json',
        ...(cookie ? { cookie: `rewards_console=${cookie}` } : {}),
      },
      payload: JSON.stringify(body),
    });
  const cookieOf = (reply: { cookies: Array<{ name: string; value: string }> }) =>
    reply.cookies.find((c) => c.name === 'rewards_console')?.value;

  it.each(DEMO_STAFF.map((person) => [person.email, person]))(
    '%s signs in with the README password and TOTP secret',
    async (_email, person) => {
      const password = await post(consolePaths.signIn, { email: person.email, password: DEMO_STAFF_PASSWORD });
      expect(password.statusCode).toBe(200);
      expect(password.json<StaffSignInReply>().secondFactors).toEqual(['totp']);
      const code = await post(consolePaths.signInTotp, { code: totpCode(person.totpSecret) }, cookieOf(password));
      expect(code.statusCode).toBe(200);
      const me = code.json<StaffMe>();
      expect({ email: me.email, owner: me.owner, roles: me.roles.map((r) => `${r.clientId}:${r.role}`) }).toEqual({
        email: person.email,
        owner: person.owner,
        roles: person.roles.map((r) => `${r.clientId}:${r.role}`),
      });
    },
  );

  it('keeps the secrets sealed: no demo secret is in the database as it was given', async () => {
    const rows = JSON.stringify(await database.db.selectFrom('staff').selectAll().execute());
    for (const person of DEMO_STAFF) expect(rows).not.toContain(person.totpSecret);
  });
});

describe.each(dialects)('a demo database from before the console on %s', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-demo-staff-'));
    database = await createTestDatabase(dialect);
    // Seeded as before: no folder for the sealing key, so no staff.
    await seedDemo(database.db);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gets the missing demo staff from seed-demo, once, leaving those that are there alone', async () => {
    expect(await database.db.selectFrom('staff').select('email').execute()).toEqual([]);
    expect(await addMissingDemoStaff(database.db, dataDir)).toBe(3);
    expect(await addMissingDemoStaff(database.db, dataDir)).toBe(0);
    const owner = await database.db
      .selectFrom('staff')
      .select(['id', 'password_hash'])
      .where('email_key', '=', 'owner@rewards.localhost')
      .executeTakeFirstOrThrow();
    await database.db.deleteFrom('staff').where('email_key', '=', 'agent@acme.example').execute();
    expect(await addMissingDemoStaff(database.db, dataDir)).toBe(1);
    expect(
      await database.db
        .selectFrom('staff')
        .select(['id', 'password_hash'])
        .where('email_key', '=', 'owner@rewards.localhost')
        .executeTakeFirstOrThrow(),
    ).toEqual(owner);
    const roles = await database.db
      .selectFrom('staff_roles')
      .innerJoin('staff', 'staff.id', 'staff_roles.staff_id')
      .select(['staff.email', 'staff_roles.client_id', 'staff_roles.role'])
      .orderBy('staff.email')
      .orderBy('staff_roles.client_id')
      .execute();
    expect(roles.map((r) => `${r.email} ${r.client_id}:${r.role}`)).toEqual([
      'agent@acme.example acme:support_agent',
      'auditor@acme.example acme:auditor',
      'auditor@acme.example nimbus:program_manager',
    ]);
  });
});
