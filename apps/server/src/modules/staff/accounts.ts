import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode } from '@rewards/contract';
import { CONSOLE_ENROL_PATH, STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import type { Db } from '../../db/database.ts';
import type { Database, Staff } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit, type AuditActorKind } from '../audit/store.ts';
import { STAFF_LIMITS_SCOPE, staffLimitSubjects } from '../limits/policy.ts';
import { clearLimits } from '../limits/service.ts';
import { hashEnrolmentToken, newEnrolmentToken } from './secrets.ts';
import {
  clientNames,
  deleteEnrolmentsOf,
  deletePasskeysOf,
  deleteRole,
  deleteStaffSessionsOf,
  emailKey,
  findStaffByEmail,
  insertEnrolment,
  insertStaff,
  listStaff,
  pendingEnrolmentOf,
  putRole,
  replaceRecoveryCodes,
  rolesOf,
  updateStaff,
} from './store.ts';

/** How long an enrolment link works. */
export const ENROLMENT_HOURS = 72;

/** Who changes staff, for the audit log: the operator (CLI) today, an owner in the console later. */
export interface StaffActor {
  name: string;
  kind: AuditActorKind;
  origin: string | null;
  /** Why: required for every change. */
  reason: string;
}

export interface RoleInClient {
  clientId: string;
  role: StaffRole;
}

/** One person as `staff list` shows them: never a secret. */
export interface StaffView {
  email: string;
  name: string;
  owner: boolean;
  status: 'active' | 'disabled';
  enrolled: boolean;
  enrolledAt: string | null;
  lastSignInAt: string | null;
  /** Until when an unused enrolment link works; null: none. */
  enrolmentOpenUntil: string | null;
  roles: Array<{ clientId: string; clientName: string; role: StaffRole }>;
}

export interface EnrolmentLink {
  url: string;
  expiresAt: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const HOUR = 3_600_000;

const notFound = (email: string) => new ApiError(404, ErrorCode.notFound, 'error.notFound', `No staff member with the e-mail address ${email}`);

function checkReason(actor: StaffActor): void {
  const reason = actor.reason.trim();
  if (reason.length < 3 || reason.length > 500) throw errors.validation('A reason of 3 to 500 characters is required');
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

async function requireClients(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  const known = new Set((await clientNames(db, [...new Set(ids)])).map((c) => c.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw errors.validation(`Unknown client ${missing.join(', ')}`);
}

async function requireStaffMember(db: Kysely<Database>, email: string): Promise<Staff> {
  const staff = await findStaffByEmail(db, email);
  if (!staff) throw notFound(email.trim());
  return staff;
}

function audit(trx: Kysely<Database>, actor: StaffActor, action: string, staff: Staff, details: Record<string, unknown>, clientId: string | null, now: Date) {
  return recordAudit(trx, { clientId, actor: actor.name, actorKind: actor.kind, action, subject: staff.email, details: { reason: actor.reason.trim(), ...details }, origin: actor.origin }, now);
}

/** A new single-use link (replacing the person's earlier ones), valid for ENROLMENT_HOURS. */
async function newEnrolment(trx: Kysely<Database>, consoleOrigin: string, staffId: string, createdBy: string, now: Date): Promise<EnrolmentLink> {
  const token = newEnrolmentToken();
  const expiresAt = new Date(now.getTime() + ENROLMENT_HOURS * HOUR).toISOString();
  await deleteEnrolmentsOf(trx, staffId);
  await insertEnrolment(trx, {
    token_hash: hashEnrolmentToken(token),
    staff_id: staffId,
    created_by: createdBy,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    password_hash: null,
    totp_secret_sealed: null,
    webauthn_challenge: null,
    used_at: null,
  });
  // After the `#`: a browser never sends it, so no server or proxy log ever holds the token.
  return { url: `${consoleOrigin}${CONSOLE_ENROL_PATH}#${token}`, expiresAt };
}

export interface NewStaff {
  email: string;
  name: string;
  owner: boolean;
  roles: RoleInClient[];
}

/** `staff create`: the person, their roles, and an enrolment link to hand them. */
export async function createStaff(db: Db, consoleOrigin: string, actor: StaffActor, input: NewStaff, now = new Date()): Promise<{ staff: StaffView; enrolment: EnrolmentLink }> {
  checkReason(actor);
  const email = input.email.trim();
  const name = input.name.trim();
  if (!EMAIL.test(email) || email.length > 320) throw errors.validation(`"${email}" is not an e-mail address`);
  if (name.length < 1 || name.length > 200) throw errors.validation('A name of 1 to 200 characters is required');
  if (!input.owner && input.roles.length === 0) throw errors.validation('Give --owner or at least one role in a client: without either the person could do nothing');
  const clients = input.roles.map((r) => r.clientId);
  if (new Set(clients).size !== clients.length) throw errors.validation('One role per client: a client is named twice');
  await requireClients(db, clients);
  const enrolment = await db.transaction().execute(async (trx) => {
    if (await findStaffByEmail(trx, email)) throw errors.validation(`${email} is already a staff member`);
    const staff: Staff = {
      id: randomUUID(),
      email,
      email_key: emailKey(email),
      name,
      password_hash: null,
      status: 'active',
      owner: input.owner ? 1 : 0,
      totp_secret_sealed: null,
      totp_last_step: null,
      created_at: now.toISOString(),
      enrolled_at: null,
      last_sign_in_at: null,
    };
    await insertStaff(trx, staff);
    for (const { clientId, role } of input.roles) {
      await putRole(trx, { staff_id: staff.id, client_id: clientId, role, granted_at: now.toISOString(), granted_by: actor.name });
    }
    await audit(trx, actor, 'staff.create', staff, { owner: input.owner, roles: input.roles }, null, now);
    return newEnrolment(trx, consoleOrigin, staff.id, actor.name, now);
  });
  const [view] = await viewsOf(db, [email], now);
  if (!view) throw notFound(email);
  return { staff: view, enrolment };
}

/** `staff list`: everyone, with their roles per client, status, enrolment and last sign-in. */
export async function listStaffViews(db: Db, now = new Date()): Promise<StaffView[]> {
  return viewsOf(db, undefined, now);
}

async function viewsOf(db: Db, emails: string[] | undefined, now: Date): Promise<StaffView[]> {
  const keys = emails?.map(emailKey);
  const people = (await listStaff(db)).filter((s) => !keys || keys.includes(s.email_key));
  const roles = await rolesOf(db);
  return Promise.all(
    people.map(async (s) => ({
      email: s.email,
      name: s.name,
      owner: s.owner === 1,
      status: s.status === 'disabled' ? ('disabled' as const) : ('active' as const),
      enrolled: s.enrolled_at !== null,
      enrolledAt: s.enrolled_at,
      lastSignInAt: s.last_sign_in_at,
      enrolmentOpenUntil: (await pendingEnrolmentOf(db, s.id, now.toISOString()))?.expires_at ?? null,
      roles: roles.filter((r) => r.staff_id === s.id).map((r) => ({ clientId: r.client_id, clientName: r.client_name, role: r.role as StaffRole })),
    })),
  );
}

/** What a grant or revoke names: a role in a client, or the owner flag. */
export type RoleChange = { owner: true } | { owner?: false; clientId: string; role?: StaffRole };

/** `staff grant`: a role in a client (replacing the one held there), or the owner flag. */
export async function grantStaff(db: Db, actor: StaffActor, email: string, change: RoleChange, now = new Date()): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const role = change.owner ? undefined : change.role;
  if (!change.owner) {
    if (!role) throw errors.validation(`A role is required: ${STAFF_ROLES.join(', ')}`);
    await requireClients(db, [change.clientId]);
  }
  const changed = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, email);
    if (change.owner || !role) {
      if (staff.owner === 1) return false;
      await updateStaff(trx, staff.id, { owner: 1 });
      await audit(trx, actor, 'staff.grant', staff, { owner: true }, null, now);
      return true;
    }
    const held = (await rolesOf(trx, staff.id)).find((r) => r.client_id === change.clientId);
    if (held?.role === role) return false;
    await putRole(trx, { staff_id: staff.id, client_id: change.clientId, role, granted_at: now.toISOString(), granted_by: actor.name });
    await audit(trx, actor, 'staff.grant', staff, { role, ...(held ? { replaces: held.role } : {}) }, change.clientId, now);
    return true;
  });
  return { staff: await viewOf(db, email, now), changed };
}

/** `staff revoke`: the role held in a client, or the owner flag. */
export async function revokeStaff(db: Db, actor: StaffActor, email: string, change: RoleChange, now = new Date()): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const changed = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, email);
    if (change.owner) {
      if (staff.owner !== 1) return false;
      await updateStaff(trx, staff.id, { owner: 0 });
      await audit(trx, actor, 'staff.revoke', staff, { owner: true }, null, now);
      return true;
    }
    const held = (await rolesOf(trx, staff.id)).find((r) => r.client_id === change.clientId);
    if (!held) return false;
    await deleteRole(trx, staff.id, change.clientId);
    await audit(trx, actor, 'staff.revoke', staff, { role: held.role }, change.clientId, now);
    return true;
  });
  return { staff: await viewOf(db, email, now), changed };
}

/** `staff disable`: no sign-in, and every session ends now. */
export async function disableStaff(db: Db, actor: StaffActor, email: string, now = new Date()): Promise<{ staff: StaffView; sessionsEnded: number; changed: boolean }> {
  checkReason(actor);
  const result = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, email);
    const sessionsEnded = await deleteStaffSessionsOf(trx, staff.id);
    if (staff.status === 'disabled') return { sessionsEnded, changed: false };
    await updateStaff(trx, staff.id, { status: 'disabled' });
    await audit(trx, actor, 'staff.disable', staff, { sessionsEnded }, null, now);
    return { sessionsEnded, changed: true };
  });
  return { staff: await viewOf(db, email, now), ...result };
}

/** `staff enable`: may sign in again (with the password and second factor they had). */
export async function enableStaff(db: Db, actor: StaffActor, email: string, now = new Date()): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const changed = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, email);
    if (staff.status === 'active') return false;
    await updateStaff(trx, staff.id, { status: 'active' });
    await audit(trx, actor, 'staff.enable', staff, {}, null, now);
    return true;
  });
  return { staff: await viewOf(db, email, now), changed };
}

/**
 * `staff reset`: the password, TOTP secret, passkeys and recovery codes are void at once, every
 * session ends and the attempt limits on the person start afresh; a new enrolment link sets them
 * again. For a lost phone, a leaked password, or a person locked out for the day.
 */
export async function resetStaff(db: Db, consoleOrigin: string, actor: StaffActor, email: string, now = new Date()): Promise<{ staff: StaffView; enrolment: EnrolmentLink; sessionsEnded: number }> {
  checkReason(actor);
  const { enrolment, sessionsEnded } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, email);
    await updateStaff(trx, staff.id, { password_hash: null, totp_secret_sealed: null, totp_last_step: null, enrolled_at: null });
    await replaceRecoveryCodes(trx, staff.id, [], now.toISOString());
    await deletePasskeysOf(trx, staff.id);
    // The operator vouches for the person: the attempts counted against them start afresh.
    await clearLimits(trx, STAFF_LIMITS_SCOPE, staffLimitSubjects(staff));
    const sessionsEnded = await deleteStaffSessionsOf(trx, staff.id);
    await audit(trx, actor, 'staff.reset', staff, { sessionsEnded }, null, now);
    return { enrolment: await newEnrolment(trx, consoleOrigin, staff.id, actor.name, now), sessionsEnded };
  });
  return { staff: await viewOf(db, email, now), enrolment, sessionsEnded };
}

async function viewOf(db: Db, email: string, now: Date): Promise<StaffView> {
  const [view] = await viewsOf(db, [email], now);
  if (!view) throw notFound(email.trim());
  return view;
}
