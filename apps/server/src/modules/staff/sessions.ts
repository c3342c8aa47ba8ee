import type { Kysely } from 'kysely';
import type { StaffMe, StaffRole } from '@rewards/contract/console';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Staff, StaffSession } from './tables.ts';
import { hashSessionId, newSessionId } from '../sessions/session-id.ts';
import {
  deleteAllStaffSessions,
  deleteExpiredStaffSessions,
  deleteStaffSession,
  deleteStaffSessionsOf,
  findStaffSession,
  insertStaffSession,
  touchStaffSession,
} from './store.ts';
import { rolesOf } from './roles.ts';

/** Console sessions (docs/decisions/046): fixed, stricter than a participant's. */
export const STAFF_SESSION = {
  idleMinutes: 15,
  maxHours: 8,
  /** The half-signed-in state after the password, which can only pass the second factor. */
  halfMinutes: 5,
} as const;

const MINUTE = 60_000;
/** Sliding the idle expiry on every request would write on every read; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;
const PURGE_EVERY_MS = 60_000;
let lastPurge = 0;

/**
 * A console session id: 256 random bits behind a `cs.` prefix. The participant API's guard only
 * looks up 43 base64url characters, so a console id is never even looked up there; and the
 * console looks up only its own table.
 */
const STAFF_SESSION_PATTERN = /^cs\.[A-Za-z0-9_-]{43}$/;
export const isPlausibleStaffSessionId = (id: string) => STAFF_SESSION_PATTERN.test(id);
const newStaffSessionId = () => `cs.${newSessionId()}`;

export interface StartedSession {
  sessionId: string;
  session: StaffSession;
}

/** A half session after the right password: 5 minutes, no sliding, nothing but the second factor. */
export async function startHalfSession(db: Kysely<Database>, staffId: string, address: string, now: Date): Promise<StartedSession> {
  const expires = new Date(now.getTime() + STAFF_SESSION.halfMinutes * MINUTE).toISOString();
  return insert(
    db,
    { staff_id: staffId, created_from: address, idle_expires_at: expires, absolute_expires_at: expires, second_factor_at: null },
    now,
  );
}

/**
 * A full session, the second factor passed now (or, through the OpenID provider, when the
 * provider says it was: its auth_time, decision 068): 15 minutes idle, 8 hours at most.
 */
export async function startFullSession(
  db: Kysely<Database>,
  staffId: string,
  address: string,
  now: Date,
  secondFactorAt: Date = now,
): Promise<StartedSession> {
  return insert(
    db,
    {
      staff_id: staffId,
      created_from: address,
      idle_expires_at: new Date(now.getTime() + STAFF_SESSION.idleMinutes * MINUTE).toISOString(),
      absolute_expires_at: new Date(now.getTime() + STAFF_SESSION.maxHours * 60 * MINUTE).toISOString(),
      second_factor_at: secondFactorAt.toISOString(),
    },
    now,
  );
}

async function insert(
  db: Kysely<Database>,
  fields: Pick<StaffSession, 'staff_id' | 'created_from' | 'idle_expires_at' | 'absolute_expires_at' | 'second_factor_at'>,
  now: Date,
): Promise<StartedSession> {
  const sessionId = newStaffSessionId();
  const session: StaffSession = {
    id_hash: hashSessionId(sessionId),
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    ...fields,
    created_from: fields.created_from?.slice(0, 400) ?? null,
    webauthn_challenge: null,
  };
  await insertStaffSession(db, session);
  return { sessionId, session };
}

export interface LiveStaffSession {
  session: StaffSession;
  staff: Staff;
  /** Whether the second factor was passed: only then may the session do anything but complete it. */
  full: boolean;
}

/**
 * The live session behind a cookie's id: undefined when unknown, expired (then deleted), or
 * its person disabled (then all their sessions end). A full session's idle expiry slides, at
 * most once a minute; a half one never does.
 */
export async function resumeStaffSession(db: Db, sessionId: string, now = new Date()): Promise<LiveStaffSession | undefined> {
  if (!isPlausibleStaffSessionId(sessionId)) return undefined;
  await purgeNowAndThen(db);
  const found = await findStaffSession(db, hashSessionId(sessionId));
  if (!found) return undefined;
  const { session, staff } = found;
  const nowMs = now.getTime();
  // Written as "not later than now" so that an unreadable time (NaN) counts as expired.
  if (!(Date.parse(session.idle_expires_at) > nowMs && Date.parse(session.absolute_expires_at) > nowMs)) {
    await deleteStaffSession(db, session.id_hash);
    return undefined;
  }
  if (staff.status !== 'active') {
    await deleteStaffSessionsOf(db, staff.id);
    return undefined;
  }
  const full = session.second_factor_at !== null;
  if (full && !(nowMs - Date.parse(session.last_seen_at) < TOUCH_INTERVAL_MS)) {
    const nowIso = now.toISOString();
    const idleExpiresAt = new Date(nowMs + STAFF_SESSION.idleMinutes * MINUTE).toISOString();
    await touchStaffSession(db, session.id_hash, nowIso, idleExpiresAt);
    return { session: { ...session, last_seen_at: nowIso, idle_expires_at: idleExpiresAt }, staff, full };
  }
  return { session, staff, full };
}

/** Ends every console session: a restored database must not let a cookie of before the backup back in (docs/decisions/080). */
export function endAllStaffSessions(db: Kysely<Database>): Promise<number> {
  return deleteAllStaffSessions(db);
}

export async function endStaffSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await deleteStaffSession(db, idHash);
}

/** GET me: the person and their roles per client. */
export async function staffMe(db: Kysely<Database>, staff: Staff, session: StaffSession): Promise<StaffMe> {
  const roles = await rolesOf(db, staff.id);
  return {
    email: staff.email,
    name: staff.name,
    owner: staff.owner === 1,
    roles: roles.map((r) => ({ clientId: r.client_id, clientName: r.client_name, role: r.role as StaffRole })),
    secondFactorAt: session.second_factor_at ?? '',
  };
}

/**
 * Ended sessions are deleted about once a minute per process, by whichever request comes along.
 * By the clock, not a caller's `now`: a session is only deleted once it has truly ended.
 */
async function purgeNowAndThen(db: Db): Promise<void> {
  const now = new Date();
  if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now.getTime();
  await deleteExpiredStaffSessions(db, now.toISOString());
}
