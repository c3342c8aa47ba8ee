import type { Db } from '../../db/database.ts';
import type { Session } from './tables.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

// Run on every signed-in request: compiled to SQL once (docs/decisions/014).
const selectSession = compiledOnce(
  (db: Db, idHash: string, clientId: string) =>
    db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).where('client_id', '=', clientId),
  // Every signed-in request on PostgreSQL: parsed and planned once per connection (decision 034).
  { prepared: true },
);
const updateSessionSeen = compiledOnce((db: Db, idHash: string, lastSeenAt: string, idleExpiresAt: string) =>
  db.updateTable('sessions').set({ last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt }).where('id_hash', '=', idHash),
);

/**
 * A new session, and for a sign-in of the participant's own (not launch-as) their last sign-in,
 * which the console shows (docs/decisions/047): one commit for both.
 */
export async function insertSession(db: Db, session: Session): Promise<void> {
  const write = async (trx: Db) => {
    await trx.insertInto('sessions').values(session).execute();
    if (session.admin_as_user === 1) return;
    await trx
      .insertInto('participant_sign_ins')
      .values({ client_id: session.client_id, participant_id: session.participant_id, last_at: session.created_at })
      .onConflict((conflict) => conflict.columns(['client_id', 'participant_id']).doUpdateSet({ last_at: session.created_at }))
      .execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
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

/** Every participant session, of every client (a restored database, docs/decisions/080); returns how many. */
export async function deleteAllSessions(db: Db): Promise<number> {
  const result = await db.deleteFrom('sessions').executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db, now: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('idle_expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
