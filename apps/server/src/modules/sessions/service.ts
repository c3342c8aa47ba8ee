import type { Db } from '../../db/database.ts';
import type { Session } from '../../db/schema.ts';
import { deleteExpiredSessions, deleteSession, findSession, insertSession, touchSession } from './store.ts';
import { hashSessionId, newSessionId } from './session-id.ts';

export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
}

const MINUTE = 60_000;

/** Sliding the idle expiry on every request would write on every read; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;

export async function startSession(
  db: Db,
  policy: SessionPolicy,
  clientId: string,
  participantId: string,
  adminAsUser: boolean,
  now = new Date(),
): Promise<{ sessionId: string; session: Session }> {
  const sessionId = newSessionId();
  const session: Session = {
    id_hash: hashSessionId(sessionId),
    client_id: clientId,
    participant_id: participantId,
    admin_as_user: adminAsUser ? 1 : 0,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    idle_expires_at: new Date(now.getTime() + policy.idleMinutes * MINUTE).toISOString(),
    absolute_expires_at: new Date(now.getTime() + policy.maxHours * 60 * MINUTE).toISOString(),
  };
  await insertSession(db, session);
  return { sessionId, session };
}

/** The live session behind an id, its idle expiry slid forward; undefined when missing or expired. */
export async function resumeSession(
  db: Db,
  policy: SessionPolicy,
  clientId: string,
  sessionId: string,
  now = new Date(),
): Promise<Session | undefined> {
  const idHash = hashSessionId(sessionId);
  const session = await findSession(db, clientId, idHash);
  if (!session) return undefined;
  const nowIso = now.toISOString();
  if (session.idle_expires_at <= nowIso || session.absolute_expires_at <= nowIso) {
    await deleteSession(db, clientId, idHash);
    return undefined;
  }
  if (now.getTime() - Date.parse(session.last_seen_at) >= TOUCH_INTERVAL_MS) {
    const idleExpiresAt = new Date(now.getTime() + policy.idleMinutes * MINUTE).toISOString();
    await touchSession(db, idHash, nowIso, idleExpiresAt);
    return { ...session, last_seen_at: nowIso, idle_expires_at: idleExpiresAt };
  }
  return session;
}

export async function endSession(db: Db, clientId: string, sessionId: string): Promise<void> {
  await deleteSession(db, clientId, hashSessionId(sessionId));
}

export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<number> {
  return deleteExpiredSessions(db, now.toISOString());
}
