import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { CONSOLE_ENROL_PATH, STAFF_ROLES, type SecondFactor, type StaffRole } from '@rewards/contract/console';
import type { StaffMember } from '@rewards/contract/console-staff';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Staff } from './tables.ts';
import { ErrorCode } from '@rewards/contract';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { STAFF_LIMITS_SCOPE, staffLimitSubjects } from '../limits/policy.ts';
import { clearLimits } from '../limits/service.ts';
import { staffErrors } from './errors.ts';
import { queueStaffMail, type StaffMailTemplate } from './mail.ts';
import { hashEnrolmentToken, newEnrolmentToken } from './secrets.ts';
import {
  deleteEnrolmentsOf,
  deletePasskeysOf,
  deleteRole,
  deleteStaffSessionsOf,
  emailKey,
  findStaffByEmail,
  findStaffById,
  insertEnrolment,
  insertStaff,
  listStaff,
  lockOwners,
  openEnrolments,
  putRole,
  replaceRecoveryCodes,
  secondFactorHolders,
  updateStaff,
} from './store.ts';
import { rolesOf } from './roles.ts';
import { clientNames } from '../clients/service.ts';

/**
 * Staff accounts (docs/decisions/046, 049): the one set of services under `rewards staff` and the
 * console's staff management. Each change checks, changes, audits (and queues its mail) in one
 * transaction; the command and the routes only parse, call and print.
 */

/** How long an enrolment link works. */
export const ENROLMENT_HOURS = 72;

/** Who changes staff, for the audit log: the operator (CLI), or an owner in the console. */
export interface StaffActor {
  name: string;
  kind: AuditActorKind;
  origin: string | null;
  /** Why: required for every change. */
  reason: string;
  /** The staff member acting (the console): the rules about one's own account apply to them. */
  staffId?: string;
}

/** A staff member as a command names them (the e-mail address) or the console does (the id). */
export type StaffRef = string | { id: string };

export interface RoleInClient {
  clientId: string;
  role: StaffRole;
}

/** One person as `staff list` and the console show them: never a secret. */
export interface StaffView {
  id: string;
  email: string;
  name: string;
  owner: boolean;
  status: 'active' | 'disabled';
  enrolled: boolean;
  enrolledAt: string | null;
  createdAt: string;
  lastSignInAt: string | null;
  /** Until when an unused enrolment link works; null: none. */
  enrolmentOpenUntil: string | null;
  secondFactors: SecondFactor[];
  roles: Array<{ clientId: string; clientName: string; role: StaffRole }>;
}

export interface EnrolmentLink {
  url: string;
  expiresAt: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const HOUR = 3_600_000;

function checkReason(actor: StaffActor): void {
  const reason = actor.reason.trim();
  if (reason.length < 3 || reason.length > 500) throw errors.validation('A reason of 3 to 500 characters is required');
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

/** Roles as given: one per client, each a role, in clients that exist. */
async function checkRoles(db: Kysely<Database>, roles: readonly RoleInClient[]): Promise<void> {
  const ids = roles.map((r) => r.clientId);
  if (new Set(ids).size !== ids.length) throw errors.validation('One role per client: a client is named twice');
  const bad = roles.find((r) => !isStaffRole(r.role));
  if (bad) throw errors.validation(`Unknown role ${bad.role}: ${STAFF_ROLES.join(', ')}`);
  const known = new Set((await clientNames(db, [...new Set(ids)])).map((c) => c.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw errors.validation(`Unknown client ${missing.join(', ')}`);
}

async function requireStaffMember(db: Kysely<Database>, who: StaffRef): Promise<Staff> {
  const staff = typeof who === 'string' ? await findStaffByEmail(db, who) : await findStaffById(db, who.id);
  if (!staff)
    throw typeof who === 'string'
      ? new ApiError(404, ErrorCode.notFound, 'error.notFound', `No staff member with the e-mail address ${who.trim()}`)
      : staffErrors.notFound();
  return staff;
}

/** Signed in with a password and a second factor, and allowed to: what "active" means for the owners' guard rail. */
const isActiveOwner = (s: Staff) => s.owner === 1 && s.status === 'active' && s.enrolled_at !== null;

/**
 * The guard rails of a change that takes someone's owner powers away (disable, the owner flag
 * revoked): not one's own (another owner must do it), and never the last active owner, counted
 * under a lock on the owners' rows.
 */
async function checkOwnerRemoval(trx: Kysely<Database>, actor: StaffActor, staff: Staff): Promise<void> {
  if (actor.staffId === staff.id) throw staffErrors.ownAccount();
  const owners = await lockOwners(trx);
  const target = owners.find((o) => o.id === staff.id) ?? staff;
  if (isActiveOwner(target) && owners.filter(isActiveOwner).length <= 1) throw staffErrors.lastOwner();
}

function audit(
  trx: Kysely<Database>,
  actor: StaffActor,
  action: string,
  staff: Pick<Staff, 'email'>,
  details: Record<string, unknown>,
  clientId: string | null,
  now: Date,
) {
  return recordAudit(
    trx,
    {
      clientId,
      actor: actor.name,
      actorKind: actor.kind,
      action,
      subject: staff.email,
      details: { reason: actor.reason.trim(), ...details },
      origin: actor.origin,
    },
    now,
  );
}

/** A new single-use link (replacing the person's earlier ones), valid for ENROLMENT_HOURS. */
async function newEnrolment(
  trx: Kysely<Database>,
  consoleOrigin: string,
  staffId: string,
  createdBy: string,
  now: Date,
): Promise<EnrolmentLink> {
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

/**
 * How a new link reaches the person: printed by the command that made it (the operator hands it
 * over), or mailed through the outbox (the console: the owner never sees it).
 */
type Handoff = { kind: 'print' } | { kind: 'mail'; template: StaffMailTemplate };

async function handOver(
  trx: Transaction<Database>,
  consoleOrigin: string,
  handoff: Handoff,
  actor: StaffActor,
  staff: Staff,
  link: EnrolmentLink,
): Promise<void> {
  if (handoff.kind !== 'mail') return;
  const host = new URL(consoleOrigin).hostname;
  await queueStaffMail(trx, {
    template: handoff.template,
    to: staff.email,
    name: staff.name,
    link: link.url,
    expiresAt: link.expiresAt,
    by: actor.name,
    host,
  });
}

export interface NewStaff {
  email: string;
  name: string;
  owner: boolean;
  roles: RoleInClient[];
}

async function addStaff(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  input: NewStaff,
  handoff: Handoff,
  now: Date,
): Promise<{ staff: StaffView; enrolment: EnrolmentLink }> {
  checkReason(actor);
  const email = input.email.trim();
  const name = input.name.trim();
  if (!EMAIL.test(email) || email.length > 320) throw errors.validation(`"${email}" is not an e-mail address`);
  if (name.length < 1 || name.length > 200) throw errors.validation('A name of 1 to 200 characters is required');
  if (!input.owner && input.roles.length === 0)
    throw errors.validation('Make the person an owner or give at least one role in a client: without either they could do nothing');
  await checkRoles(db, input.roles);
  const staffId = randomUUID();
  const enrolment = await db.transaction().execute(async (trx) => {
    if (await findStaffByEmail(trx, email)) throw staffErrors.alreadyStaff();
    const staff: Staff = {
      id: staffId,
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
    await audit(trx, actor, 'staff.create', staff, { owner: input.owner, roles: input.roles, linkBy: handoff.kind }, null, now);
    // Each role also in its client's trail: who was given access to a client shows where the client's staff look.
    for (const { clientId, role } of input.roles) {
      await putRole(trx, { staff_id: staff.id, client_id: clientId, role, granted_at: now.toISOString(), granted_by: actor.name });
      await audit(trx, actor, 'staff.grant', staff, { role }, clientId, now);
    }
    const link = await newEnrolment(trx, consoleOrigin, staff.id, actor.name, now);
    await handOver(trx, consoleOrigin, handoff, actor, staff, link);
    return link;
  });
  return { staff: await viewOf(db, { id: staffId }, now), enrolment };
}

/** `staff create`: the person, their roles, and an enrolment link to hand them. */
export async function createStaff(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  input: NewStaff,
  now = new Date(),
): Promise<{ staff: StaffView; enrolment: EnrolmentLink }> {
  return addStaff(db, consoleOrigin, actor, input, { kind: 'print' }, now);
}

/**
 * The console's invitation: as `staff create`, but the link is mailed to the person through the
 * outbox (queued in the same transaction) and never shown to the owner who invites.
 */
export async function inviteStaff(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  input: NewStaff,
  now = new Date(),
): Promise<{ staff: StaffView; linkExpiresAt: string }> {
  const { staff, enrolment } = await addStaff(db, consoleOrigin, actor, input, { kind: 'mail', template: 'staffInvitation' }, now);
  return { staff, linkExpiresAt: enrolment.expiresAt };
}

/** `staff list`: everyone, with their roles per client, status, enrolment, second factors and last sign-in. */
export async function listStaffViews(db: Db, now = new Date()): Promise<StaffView[]> {
  return viewsOf(db, await listStaff(db), now);
}

async function viewsOf(db: Kysely<Database>, people: Staff[], now: Date): Promise<StaffView[]> {
  const [roles, holders, links] = await Promise.all([rolesOf(db), secondFactorHolders(db), openEnrolments(db, now.toISOString())]);
  return people.map((s) => {
    const secondFactors: SecondFactor[] = [];
    if (holders.passkey.has(s.id)) secondFactors.push('passkey');
    if (s.totp_secret_sealed) secondFactors.push('totp');
    if (holders.recoveryCode.has(s.id)) secondFactors.push('recoveryCode');
    return {
      id: s.id,
      email: s.email,
      name: s.name,
      owner: s.owner === 1,
      status: s.status === 'disabled' ? ('disabled' as const) : ('active' as const),
      enrolled: s.enrolled_at !== null,
      enrolledAt: s.enrolled_at,
      createdAt: s.created_at,
      lastSignInAt: s.last_sign_in_at,
      enrolmentOpenUntil: links.get(s.id) ?? null,
      secondFactors,
      roles: roles
        .filter((r) => r.staff_id === s.id)
        .map((r) => ({ clientId: r.client_id, clientName: r.client_name, role: r.role as StaffRole })),
    };
  });
}

/** One person as the list shows them; 404 when there is no such person. */
export async function staffView(db: Db, who: StaffRef, now = new Date()): Promise<StaffView> {
  return viewOf(db, who, now);
}

async function viewOf(db: Kysely<Database>, who: StaffRef, now: Date): Promise<StaffView> {
  const [view] = await viewsOf(db, [await requireStaffMember(db, who)], now);
  if (!view) throw staffErrors.notFound();
  return view;
}

/** The console's shape of a person: invited until enrolled (again, after a reset), disabled over both. */
export function toStaffMember(view: StaffView): StaffMember {
  return {
    id: view.id,
    email: view.email,
    name: view.name,
    owner: view.owner,
    status: view.status === 'disabled' ? 'disabled' : view.enrolled ? 'active' : 'invited',
    roles: view.roles,
    secondFactors: view.secondFactors,
    createdAt: view.createdAt,
    lastSignInAt: view.lastSignInAt,
  };
}

/** What a grant or revoke names: a role in a client, or the owner flag. */
export type RoleChange = { owner: true } | { owner?: false; clientId: string; role?: StaffRole };

/** `staff grant`: a role in a client (replacing the one held there), or the owner flag. */
export async function grantStaff(
  db: Db,
  actor: StaffActor,
  who: StaffRef,
  change: RoleChange,
  now = new Date(),
): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const role = change.owner ? undefined : change.role;
  if (!change.owner) {
    if (!role) throw errors.validation(`A role is required: ${STAFF_ROLES.join(', ')}`);
    await checkRoles(db, [{ clientId: change.clientId, role }]);
  }
  const { changed, staff } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    if (change.owner || !role) {
      if (staff.owner === 1) return { changed: false, staff };
      await updateStaff(trx, staff.id, { owner: 1 });
      await audit(trx, actor, 'staff.grant', staff, { owner: true }, null, now);
      return { changed: true, staff };
    }
    const held = (await rolesOf(trx, staff.id)).find((r) => r.client_id === change.clientId);
    if (held?.role === role) return { changed: false, staff };
    await putRole(trx, { staff_id: staff.id, client_id: change.clientId, role, granted_at: now.toISOString(), granted_by: actor.name });
    await audit(trx, actor, 'staff.grant', staff, { role, ...(held ? { replaces: held.role } : {}) }, change.clientId, now);
    return { changed: true, staff };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), changed };
}

/** `staff revoke`: the role held in a client, or the owner flag (not one's own, not the last active owner's). */
export async function revokeStaff(
  db: Db,
  actor: StaffActor,
  who: StaffRef,
  change: RoleChange,
  now = new Date(),
): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const { changed, staff } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    if (change.owner) {
      if (staff.owner !== 1) return { changed: false, staff };
      await checkOwnerRemoval(trx, actor, staff);
      await updateStaff(trx, staff.id, { owner: 0 });
      await audit(trx, actor, 'staff.revoke', staff, { owner: true }, null, now);
      return { changed: true, staff };
    }
    const held = (await rolesOf(trx, staff.id)).find((r) => r.client_id === change.clientId);
    if (!held) return { changed: false, staff };
    await deleteRole(trx, staff.id, change.clientId);
    await audit(trx, actor, 'staff.revoke', staff, { role: held.role }, change.clientId, now);
    return { changed: true, staff };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), changed };
}

export interface RolesChange {
  /** The roles per client, replacing all held. */
  roles: RoleInClient[];
  /** The owner flag; undefined: as it is. */
  owner?: boolean | undefined;
}

/**
 * The console's roles form: the person's roles replaced as a whole (and the owner flag, if
 * given). Each client whose role changes gets its own audit entry (its client id, so the client's
 * trail shows who was given or lost access there); the owner flag one of the installation
 * (client null). Nothing changed, nothing written.
 */
export async function setStaffRoles(
  db: Db,
  actor: StaffActor,
  who: StaffRef,
  change: RolesChange,
  now = new Date(),
): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  await checkRoles(db, change.roles);
  const { changed, staff } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    const owner = change.owner ?? staff.owner === 1;
    if (!owner && change.roles.length === 0)
      throw errors.validation('Keep the owner flag or at least one role in a client: to take all access away, disable the person');
    let changed = false;
    if (owner !== (staff.owner === 1)) {
      if (!owner) await checkOwnerRemoval(trx, actor, staff);
      await updateStaff(trx, staff.id, { owner: owner ? 1 : 0 });
      await audit(trx, actor, owner ? 'staff.grant' : 'staff.revoke', staff, { owner: true }, null, now);
      changed = true;
    }
    const held = new Map((await rolesOf(trx, staff.id)).map((r) => [r.client_id, r.role]));
    for (const { clientId, role } of change.roles) {
      const before = held.get(clientId);
      held.delete(clientId);
      if (before === role) continue;
      await putRole(trx, { staff_id: staff.id, client_id: clientId, role, granted_at: now.toISOString(), granted_by: actor.name });
      await audit(trx, actor, 'staff.grant', staff, { role, ...(before ? { replaces: before } : {}) }, clientId, now);
      changed = true;
    }
    for (const [clientId, role] of held) {
      await deleteRole(trx, staff.id, clientId);
      await audit(trx, actor, 'staff.revoke', staff, { role }, clientId, now);
      changed = true;
    }
    return { changed, staff };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), changed };
}

/** `staff disable`: no sign-in, and every session ends now. Not oneself; never the last active owner. */
export async function disableStaff(
  db: Db,
  actor: StaffActor,
  who: StaffRef,
  now = new Date(),
): Promise<{ staff: StaffView; sessionsEnded: number; changed: boolean }> {
  checkReason(actor);
  const { staff, ...result } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    await checkOwnerRemoval(trx, actor, staff);
    const sessionsEnded = await deleteStaffSessionsOf(trx, staff.id);
    if (staff.status === 'disabled') return { staff, sessionsEnded, changed: false };
    await updateStaff(trx, staff.id, { status: 'disabled' });
    await audit(trx, actor, 'staff.disable', staff, { sessionsEnded }, null, now);
    return { staff, sessionsEnded, changed: true };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), ...result };
}

/** `staff enable`: may sign in again (with the password and second factor they had). */
export async function enableStaff(
  db: Db,
  actor: StaffActor,
  who: StaffRef,
  now = new Date(),
): Promise<{ staff: StaffView; changed: boolean }> {
  checkReason(actor);
  const { staff, changed } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    if (staff.status === 'active') return { staff, changed: false };
    await updateStaff(trx, staff.id, { status: 'active' });
    await audit(trx, actor, 'staff.enable', staff, {}, null, now);
    return { staff, changed: true };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), changed };
}

async function resetWith(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  who: StaffRef,
  handoff: Handoff,
  now: Date,
): Promise<{ staff: StaffView; enrolment: EnrolmentLink; sessionsEnded: number }> {
  checkReason(actor);
  const { staff, enrolment, sessionsEnded } = await db.transaction().execute(async (trx) => {
    const staff = await requireStaffMember(trx, who);
    // Another owner resets an owner: one's own reset would end the very session asking for it.
    if (actor.staffId === staff.id) throw staffErrors.ownAccount();
    await updateStaff(trx, staff.id, { password_hash: null, totp_secret_sealed: null, totp_last_step: null, enrolled_at: null });
    await replaceRecoveryCodes(trx, staff.id, [], now.toISOString());
    await deletePasskeysOf(trx, staff.id);
    // The operator vouches for the person: the attempts counted against them start afresh.
    await clearLimits(trx, STAFF_LIMITS_SCOPE, staffLimitSubjects(staff));
    const sessionsEnded = await deleteStaffSessionsOf(trx, staff.id);
    await audit(trx, actor, 'staff.reset', staff, { sessionsEnded, linkBy: handoff.kind }, null, now);
    const link = await newEnrolment(trx, consoleOrigin, staff.id, actor.name, now);
    await handOver(trx, consoleOrigin, handoff, actor, staff, link);
    return { staff, enrolment: link, sessionsEnded };
  });
  return { staff: await viewOf(db, { id: staff.id }, now), enrolment, sessionsEnded };
}

/**
 * `staff reset`: the password, TOTP secret, passkeys and recovery codes are void at once, every
 * session ends and the attempt limits on the person start afresh; a new enrolment link sets them
 * again. For a lost phone, a leaked password, or a person locked out for the day.
 */
export async function resetStaff(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  who: StaffRef,
  now = new Date(),
): Promise<{ staff: StaffView; enrolment: EnrolmentLink; sessionsEnded: number }> {
  return resetWith(db, consoleOrigin, actor, who, { kind: 'print' }, now);
}

/** The console's reset: as `staff reset`, the new link mailed to the person instead of shown. */
export async function resetStaffByMail(
  db: Db,
  consoleOrigin: string,
  actor: StaffActor,
  who: StaffRef,
  now = new Date(),
): Promise<{ staff: StaffView; sessionsEnded: number; linkExpiresAt: string }> {
  const { staff, sessionsEnded, enrolment } = await resetWith(db, consoleOrigin, actor, who, { kind: 'mail', template: 'staffReset' }, now);
  return { staff, sessionsEnded, linkExpiresAt: enrolment.expiresAt };
}
