import type { Db } from '../../db/database.ts';

/** The new hash replaces the old one; only this client's participant is touched. */
export async function updatePasswordHash(db: Db, clientId: string, participantId: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('participants')
    .set({ password_hash: passwordHash })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

/** Ends every session of the participant except the one the change was made in. */
export async function deleteOtherSessions(db: Db, clientId: string, participantId: string, keepIdHash: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
