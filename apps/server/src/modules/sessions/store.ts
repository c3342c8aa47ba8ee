import type { Db } from '../../db/database.ts';
import type { Session } from '../../db/schema.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

// Run on every signed-in request: compiled to SQL once (docs/decisions/014).
const selectSession = compiledOnce((db: Db, idHash: string, clientId: string) =>
  db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).where('client_id', '=', clientId),
);
const updateSessionSeen = compiledOnce((db: Db, idHash: string, lastSeenAt: string, idleExpiresAt: string) =>
  db.updateTable('sessions').set({ last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt }).where('id_hash', '=', idHash),
);

export async function insertSession(db: Db, session: Session): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export async function findSession(db: Db, clientId: string, idHash: string) {
  const { rows } = await selectSession(db, idHash, clientId);
  return rows[0];
}

export async function touchSession(db: Db, idHash: string, lastSeenAt: string, idleExpiresAt: string): Promise<void> {
  await updateSessionSeen(db, idHash, lastSeenAt, idleExpiresAt);
}

export async function deleteSession(db: Db, clientId: string, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).where('client_id', '=', clientId).execute();
}

export async function deleteParticipantSessions(db: Db, clientId: string, participantId: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db, now: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('idle_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
