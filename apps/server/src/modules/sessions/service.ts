import type { Db } from '../../db/database.ts';
import { LRUCache } from 'lru-cache';
import { fetchKept, generationKey, loadOnMiss, perDatabase } from '../../db/read-cache.ts';
import type { Session } from './tables.ts';
import { deleteExpiredSessions, deleteSession, findSession, insertSession, touchSession } from './store.ts';
import { hashSessionId, newSessionId } from './session-id.ts';

// What other modules may use of this module's store, named here: they call the service, never
// the store (decision 053).
export { deleteAllSessions as endAllSessions, deleteParticipantSessions, findSession } from './store.ts';
// A participant's sessions and sign-ins as profile, participants and reports need them (issue 30 §3).
export {
  countLiveSessions,
  deleteOtherSessions,
  deleteSessionsOf,
  lastSignIn,
  openSessions,
  signedInSince,
} from './participant-sessions-store.ts';

export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
}

const MINUTE = 60_000;

/** Sliding the idle expiry on every request would write on every read; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;

/** What loads a session row on a miss. */
interface SessionAsked {
  db: Db;
  clientId: string;
  sessionId: string;
}

async function loadSession({ db, clientId, sessionId }: SessionAsked): Promise<KnownSession | undefined> {
  const row = await findSession(db, clientId, hashSessionId(sessionId));
  // Shared by every request of the session until the next commit: nobody may change it.
  return row && knownSession(Object.freeze(row));
}

/**
 * Session rows as last read, keyed by the data generation (docs/decisions/027, 054): a logout,
 * the CLI ending a session or changing a participant, another process's login all show on the
 * next request. Keyed by the id itself, so a hit costs no SHA-256; expiry is still checked
 * against the clock on every request. ~1 kB an entry, so at most ~2 MB.
 */
const sessionRows = perDatabase(
  () =>
    new LRUCache<string, KnownSession, SessionAsked>({
      max: 2_000,
      ...loadOnMiss(loadSession),
    }),
);

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

/** A session row as read, with its times parsed once rather than on every request. */
interface KnownSession {
  row: Session;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  lastSeenAt: number;
}

const sessionKey = (clientId: string, sessionId: string) => `${clientId}\u0000${sessionId}`;

/** A session row with its times parsed once, as the expiry and sliding rules read them. */
function knownSession(row: Session): KnownSession {
  return {
    row,
    idleExpiresAt: Date.parse(row.idle_expires_at),
    absoluteExpiresAt: Date.parse(row.absolute_expires_at),
    lastSeenAt: Date.parse(row.last_seen_at),
  };
}

/** The live session behind an id, its idle expiry slid forward; undefined when missing or expired. */
export async function resumeSession(
  db: Db,
  policy: SessionPolicy,
  clientId: string,
  sessionId: string,
  now = new Date(),
): Promise<Session | undefined> {
  const key = generationKey(db, sessionKey(clientId, sessionId));
  const asked = { db, clientId, sessionId };
  const known = key === undefined ? await loadSession(asked) : await fetchKept(sessionRows(db), key, asked);
  if (!known) return undefined;
  return liveSession(db, policy, clientId, known, now);
}

/** The expiry and sliding rules, the same whichever way the row was read. */
async function liveSession(db: Db, policy: SessionPolicy, clientId: string, known: KnownSession, now: Date): Promise<Session | undefined> {
  const session = known.row;
  const nowMs = now.getTime();
  // Written as "not later than now" so that an unreadable time (NaN) counts as expired.
  if (!(known.idleExpiresAt > nowMs && known.absoluteExpiresAt > nowMs)) {
    await deleteSession(db, clientId, session.id_hash);
    return undefined;
  }
  if (!(nowMs - known.lastSeenAt < TOUCH_INTERVAL_MS)) {
    const nowIso = now.toISOString();
    const idleExpiresAt = new Date(nowMs + policy.idleMinutes * MINUTE).toISOString();
    // A commit: the cached row is replaced on the next request.
    await touchSession(db, session.id_hash, nowIso, idleExpiresAt);
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
