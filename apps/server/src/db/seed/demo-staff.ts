import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@rewards/contract/console';
import { hashPassword } from '../../modules/auth/password.ts';
import { sealTotpSecret } from '../../modules/staff/secrets.ts';
import type { Transaction } from 'kysely';
import type { Db } from '../database.ts';
import type { Staff } from '../../modules/staff/tables.ts';
import type { Database } from '../schema.ts';
import { NEIGHBOUR_CLIENT_ID } from './demo-neighbour.ts';

/**
 * DEMO ONLY. The console's staff of the README (docs/decisions/046), enrolled, with a known
 * password and known TOTP secrets so that a newcomer is in within a minute
 * (`oathtool --totp -b SECRET`, or any authenticator app). The demo seed runs only for the
 * demo database (a new embedded one, or `rewards seed-demo`); a real installation's staff
 * enrol from `rewards staff create` links and choose their own.
 */
export const DEMO_STAFF_PASSWORD = 'Console-Demo-2026';

export const DEMO_STAFF: ReadonlyArray<{
  email: string;
  name: string;
  owner: boolean;
  roles: Array<{ clientId: string; role: StaffRole }>;
  totpSecret: string;
}> = [
  { email: 'owner@rewards.localhost', name: 'Olivia Owner', owner: true, roles: [], totpSecret: '74OXMCESMDEAQPZEHU3OLYRXCOWICIWZ' },
  {
    email: 'agent@acme.example',
    name: 'Alex Agent',
    owner: false,
    roles: [{ clientId: 'acme', role: 'support_agent' }],
    totpSecret: 'VMESY4GQNQKE2N4VZIPKTY2VZMJCZMBW',
  },
  // One person, two roles in two clients.
  {
    email: 'auditor@acme.example',
    name: 'Ada Auditor',
    owner: false,
    roles: [
      { clientId: 'acme', role: 'auditor' },
      { clientId: NEIGHBOUR_CLIENT_ID, role: 'program_manager' },
    ],
    totpSecret: 'KHQJLUPFYHHSAO5XLOVU2IVXD5S6KDC7',
  },
];

/** The rows, hashed and sealed before the seed's transaction (argon2id and the key file are slow to do inside it). */
export async function prepareDemoStaff(dataDir: string, now: Date): Promise<Staff[]> {
  const passwordHash = await hashPassword(DEMO_STAFF_PASSWORD);
  return Promise.all(
    DEMO_STAFF.map(async (person) => {
      const id = randomUUID();
      return {
        id,
        email: person.email,
        email_key: person.email.toLowerCase(),
        name: person.name,
        password_hash: passwordHash,
        status: 'active',
        owner: person.owner ? 1 : 0,
        totp_secret_sealed: await sealTotpSecret(dataDir, id, person.totpSecret),
        totp_last_step: null,
        created_at: now.toISOString(),
        enrolled_at: now.toISOString(),
        last_sign_in_at: null,
      };
    }),
  );
}

export async function seedDemoStaff(trx: Transaction<Database>, rows: readonly Staff[], now: Date): Promise<void> {
  for (const row of rows) {
    await trx.insertInto('staff').values(row).execute();
    for (const { clientId, role } of DEMO_STAFF.find((person) => person.email === row.email)?.roles ?? []) {
      await trx
        .insertInto('staff_roles')
        .values({ staff_id: row.id, client_id: clientId, role, granted_at: now.toISOString(), granted_by: 'demo seed' })
        .execute();
    }
  }
}

/**
 * `rewards seed-demo` on a demo database seeded before the console existed: the demo staff who
 * are missing are added (never changed if they are there). Returns how many were added.
 */
export async function addMissingDemoStaff(db: Db, dataDir: string, now = new Date()): Promise<number> {
  const present = new Set(
    (
      await db
        .selectFrom('staff')
        .select('email_key')
        .where(
          'email_key',
          'in',
          DEMO_STAFF.map((p) => p.email.toLowerCase()),
        )
        .execute()
    ).map((r) => r.email_key),
  );
  const missing = (await prepareDemoStaff(dataDir, now)).filter((row) => !present.has(row.email_key));
  if (missing.length > 0) await db.transaction().execute((trx) => seedDemoStaff(trx, missing, now));
  return missing.length;
}
