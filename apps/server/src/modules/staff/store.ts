import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Staff, StaffEnrolment, StaffPasskey, StaffSession, StaffSessionsTable } from './tables.ts';

type Q = Kysely<Database> | Transaction<Database>;

export const emailKey = (email: string) => email.trim().toLowerCase();

export async function findStaffByEmail(db: Q, email: string): Promise<Staff | undefined> {
  return db.selectFrom('staff').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
}

export async function findStaffById(db: Q, id: string): Promise<Staff | undefined> {
  return db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertStaff(db: Q, row: Staff): Promise<void> {
  await db.insertInto('staff').values(row).execute();
}

/**
 * The owners' rows, read under a row lock on PostgreSQL (FOR UPDATE, in id order so that two
 * callers never wait on each other crosswise): a change that could leave no active owner
 * counts them after any concurrent such change has committed. SQLite runs one write
 * transaction at a time, so there the read alone is enough.
 */
export async function lockOwners(db: Q): Promise<Staff[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db
    .selectFrom('staff')
    .selectAll()
    .where('owner', '=', 1)
    .orderBy('id')
    .$if(postgres, (qb) => qb.forUpdate())
    .execute();
}

/** Who holds a passkey, and who an unused recovery code: the second factors `staff list` shows. */
export async function secondFactorHolders(db: Q): Promise<{ passkey: Set<string>; recoveryCode: Set<string> }> {
  const [passkeys, codes] = await Promise.all([
    db.selectFrom('staff_passkeys').select('staff_id').distinct().execute(),
    db.selectFrom('staff_recovery_codes').select('staff_id').distinct().where('used_at', 'is', null).execute(),
  ]);
  return { passkey: new Set(passkeys.map((r) => r.staff_id)), recoveryCode: new Set(codes.map((r) => r.staff_id)) };
}

/** Until when each person's latest unused enrolment link works (links still open at `now`). */
export async function openEnrolments(db: Q, now: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('staff_enrolments')
    .select(['staff_id', (eb) => eb.fn.max('expires_at').as('until')])
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy('staff_id')
    .execute();
  return new Map(rows.map((r) => [r.staff_id, String(r.until)]));
}

export async function updateStaff(db: Q, id: string, changes: Partial<Omit<Staff, 'id'>>): Promise<void> {
  await db.updateTable('staff').set(changes).where('id', '=', id).execute();
}

/** Every person with their roles, for `staff list`. */
export async function listStaff(db: Q): Promise<Staff[]> {
  return db.selectFrom('staff').selectAll().orderBy('email_key').execute();
}

export interface RoleRow {
  staff_id: string;
  client_id: string;
  client_name: string;
  role: string;
}

/** Role rows, by client; one person's, or everyone's. */
export async function roleRows(db: Q, staffId?: string): Promise<Array<Omit<RoleRow, 'client_name'>>> {
  let query = db.selectFrom('staff_roles').select(['staff_id', 'client_id', 'role']);
  if (staffId) query = query.where('staff_id', '=', staffId);
  return query.orderBy('client_id').execute();
}

/** Who holds `role` in the client. */
export async function staffIdsWithRole(db: Q, clientId: string, role: string): Promise<string[]> {
  const rows = await db.selectFrom('staff_roles').select('staff_id').where('client_id', '=', clientId).where('role', '=', role).execute();
  return rows.map((row) => row.staff_id);
}

/** Active staff who are owners or one of `ids`, by address. */
export async function activeOwnersOr(db: Q, ids: readonly string[]): Promise<Array<{ email: string; name: string }>> {
  return db
    .selectFrom('staff')
    .select(['email', 'name'])
    .where('status', '=', 'active')
    .where((eb) => (ids.length === 0 ? eb('owner', '=', 1) : eb.or([eb('owner', '=', 1), eb('id', 'in', [...ids])])))
    .orderBy('email_key')
    .execute();
}

export async function putRole(
  db: Q,
  row: { staff_id: string; client_id: string; role: string; granted_at: string; granted_by: string },
): Promise<void> {
  await db
    .insertInto('staff_roles')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['staff_id', 'client_id']).doUpdateSet({ role: row.role, granted_at: row.granted_at, granted_by: row.granted_by }),
    )
    .execute();
}

export async function deleteRole(db: Q, staffId: string, clientId: string): Promise<number> {
  const result = await db.deleteFrom('staff_roles').where('staff_id', '=', staffId).where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ── enrolments ──────────────────────────────────────────────────────────

export async function insertEnrolment(db: Q, row: StaffEnrolment): Promise<void> {
  await db.insertInto('staff_enrolments').values(row).execute();
}

export async function findEnrolment(db: Q, tokenHash: string): Promise<StaffEnrolment | undefined> {
  return db.selectFrom('staff_enrolments').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function setEnrolmentSecrets(db: Q, tokenHash: string, passwordHash: string, totpSealed: string): Promise<void> {
  await db
    .updateTable('staff_enrolments')
    .set({ password_hash: passwordHash, totp_secret_sealed: totpSealed })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .execute();
}

/** Marks a link used, if nobody has: true for the one caller that did. */
export async function claimEnrolment(db: Q, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_enrolments')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A new link replaces the person's earlier ones. */
export async function deleteEnrolmentsOf(db: Q, staffId: string): Promise<void> {
  await db.deleteFrom('staff_enrolments').where('staff_id', '=', staffId).execute();
}

// ── second factors ──────────────────────────────────────────────────────

/**
 * Accepts a TOTP time step only if it is later than the last one accepted, in one conditional
 * update: of two requests with the same code, one wins.
 */
export async function acceptTotpStep(db: Q, staffId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_last_step: step })
    .where('id', '=', staffId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(db: Q, staffId: string, hashes: readonly string[], now: string): Promise<void> {
  await db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
  if (hashes.length > 0)
    await db
      .insertInto('staff_recovery_codes')
      .values(hashes.map((code_hash) => ({ staff_id: staffId, code_hash, created_at: now, used_at: null })))
      .execute();
}

/** Uses a recovery code if it is the person's and unused: true for the one caller that did. */
export async function useRecoveryCode(db: Q, staffId: string, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: now })
    .where('staff_id', '=', staffId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Q, staffId: string): Promise<number> {
  const row = await db
    .selectFrom('staff_recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ── sessions ────────────────────────────────────────────────────────────

export async function insertStaffSession(db: Q, row: StaffSessionsTable): Promise<void> {
  await db.insertInto('staff_sessions').values(row).execute();
}

/** A session with its person, in one read. */
export async function findStaffSession(db: Db, idHash: string): Promise<{ session: StaffSession; staff: Staff } | undefined> {
  const row = await db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as p', 'p.id', 's.staff_id')
    .select([
      's.id_hash',
      's.staff_id',
      's.created_at',
      's.created_from',
      's.last_seen_at',
      's.idle_expires_at',
      's.absolute_expires_at',
      's.second_factor_at',
      's.webauthn_challenge',
      'p.id',
      'p.email',
      'p.email_key',
      'p.name',
      'p.password_hash',
      'p.status',
      'p.owner',
      'p.totp_secret_sealed',
      'p.totp_last_step',
      'p.created_at as staff_created_at',
      'p.enrolled_at',
      'p.last_sign_in_at',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const session: StaffSession = {
    id_hash: row.id_hash,
    staff_id: row.staff_id,
    created_at: row.created_at,
    created_from: row.created_from,
    last_seen_at: row.last_seen_at,
    idle_expires_at: row.idle_expires_at,
    absolute_expires_at: row.absolute_expires_at,
    second_factor_at: row.second_factor_at,
    webauthn_challenge: row.webauthn_challenge,
  };
  const staff: Staff = {
    id: row.id,
    email: row.email,
    email_key: row.email_key,
    name: row.name,
    password_hash: row.password_hash,
    status: row.status,
    owner: row.owner,
    totp_secret_sealed: row.totp_secret_sealed,
    totp_last_step: row.totp_last_step,
    created_at: row.staff_created_at,
    enrolled_at: row.enrolled_at,
    last_sign_in_at: row.last_sign_in_at,
  };
  return { session, staff };
}

export async function touchStaffSession(db: Q, idHash: string, now: string, idleExpiresAt: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_seen_at: now, idle_expires_at: idleExpiresAt }).where('id_hash', '=', idHash).execute();
}

/** A step-up: the session's second factor passed again now; false when the session has ended meanwhile. */
export async function renewSecondFactor(db: Q, idHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_sessions')
    .set({ second_factor_at: now })
    .where('id_hash', '=', idHash)
    .where('second_factor_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteStaffSession(db: Q, idHash: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a person (disabled, reset); returns how many. */
export async function deleteStaffSessionsOf(db: Q, staffId: string): Promise<number> {
  const result = await db.deleteFrom('staff_sessions').where('staff_id', '=', staffId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every console session (a restored database, docs/decisions/080); returns how many. */
export async function deleteAllStaffSessions(db: Q): Promise<number> {
  const result = await db.deleteFrom('staff_sessions').executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredStaffSessions(db: Q, now: string): Promise<void> {
  await db
    .deleteFrom('staff_sessions')
    .where((eb) => eb.or([eb('idle_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
    .execute();
}

// ── passkeys ────────────────────────────────────────────────────────────

export async function passkeysOf(db: Q, staffId: string): Promise<StaffPasskey[]> {
  return db.selectFrom('staff_passkeys').selectAll().where('staff_id', '=', staffId).orderBy('created_at').execute();
}

export async function findPasskey(db: Q, staffId: string, credentialId: string): Promise<StaffPasskey | undefined> {
  return db.selectFrom('staff_passkeys').selectAll().where('staff_id', '=', staffId).where('id', '=', credentialId).executeTakeFirst();
}

export async function insertPasskey(
  db: Q,
  row: { id: string; staff_id: string; public_key: string; counter: number; transports: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('staff_passkeys')
    .values({ ...row, last_used_at: null })
    .execute();
}

export async function deletePasskeysOf(db: Q, staffId: string): Promise<void> {
  await db.deleteFrom('staff_passkeys').where('staff_id', '=', staffId).execute();
}

export async function recordPasskeyUse(db: Q, id: string, counter: number, now: string): Promise<void> {
  await db.updateTable('staff_passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
}

export async function setSessionChallenge(db: Q, idHash: string, challenge: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ webauthn_challenge: challenge }).where('id_hash', '=', idHash).execute();
}

/** Takes a half session's challenge for one check: the one caller that gets it back may verify against it. */
export async function takeSessionChallenge(db: Q, idHash: string): Promise<string | undefined> {
  const row = await db.selectFrom('staff_sessions').select('webauthn_challenge').where('id_hash', '=', idHash).executeTakeFirst();
  const challenge = row?.webauthn_challenge;
  if (!challenge) return undefined;
  const result = await db
    .updateTable('staff_sessions')
    .set({ webauthn_challenge: null })
    .where('id_hash', '=', idHash)
    .where('webauthn_challenge', '=', challenge)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? challenge : undefined;
}

export async function setEnrolmentChallenge(db: Q, tokenHash: string, challenge: string): Promise<void> {
  await db
    .updateTable('staff_enrolments')
    .set({ webauthn_challenge: challenge })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .execute();
}

/** The same for an enrolment's registration challenge. */
export async function takeEnrolmentChallenge(db: Q, tokenHash: string): Promise<string | undefined> {
  const row = await db.selectFrom('staff_enrolments').select('webauthn_challenge').where('token_hash', '=', tokenHash).executeTakeFirst();
  const challenge = row?.webauthn_challenge;
  if (!challenge) return undefined;
  const result = await db
    .updateTable('staff_enrolments')
    .set({ webauthn_challenge: null })
    .where('token_hash', '=', tokenHash)
    .where('webauthn_challenge', '=', challenge)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? challenge : undefined;
}

// ── one's own account (docs/decisions/070) ──────────────────────────────

/** Ends every session of a person but one (a password changed: the session that changed it stays); returns how many. */
export async function deleteOtherStaffSessions(db: Q, staffId: string, keepIdHash: string): Promise<number> {
  const result = await db
    .deleteFrom('staff_sessions')
    .where('staff_id', '=', staffId)
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The person's row, under a row lock on PostgreSQL: two removals of their passkeys count what
 * remains one after the other. SQLite runs one write transaction at a time.
 */
export async function lockStaff(db: Q, staffId: string): Promise<Staff | undefined> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db
    .selectFrom('staff')
    .selectAll()
    .where('id', '=', staffId)
    .$if(postgres, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/** Whether any person holds a passkey with this credential id (ids are unique across the installation). */
export async function passkeyExists(db: Q, credentialId: string): Promise<boolean> {
  return (await db.selectFrom('staff_passkeys').select('id').where('id', '=', credentialId).executeTakeFirst()) !== undefined;
}

export async function deletePasskey(db: Q, staffId: string, credentialId: string): Promise<number> {
  const result = await db.deleteFrom('staff_passkeys').where('staff_id', '=', staffId).where('id', '=', credentialId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An authenticator app for a person who has none, with the step its confirming code took: false when one was set meanwhile. */
export async function setTotpIfNone(db: Q, staffId: string, sealed: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('staff')
    .set({ totp_secret_sealed: sealed, totp_last_step: step })
    .where('id', '=', staffId)
    .where('totp_secret_sealed', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
