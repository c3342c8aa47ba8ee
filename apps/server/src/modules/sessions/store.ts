import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Session } from './tables.ts';
import type { UserParticipant } from '../participants/service.ts';
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
 * PostgreSQL's GET user in one round trip (docs/decisions/034): the session row, its participant
 * (joined on client and id, so another client's participant can never come along) and the
 * participant's program names in order, as a JSON array. Left joined: a session whose
 * participant is gone still comes back, and the caller refuses it as before. PostgreSQL only
 * (json_agg); SQLite serves GET user from its generation caches (decision 027).
 */
const selectSessionWithUser = compiledOnce(
  (db: Db, idHash: string, clientId: string) =>
    db
      .selectFrom('sessions as s')
      .leftJoin('participants as p', (join) => join.onRef('p.client_id', '=', 's.client_id').onRef('p.id', '=', 's.participant_id'))
      .select([
        's.id_hash',
        's.client_id',
        's.participant_id',
        's.admin_as_user',
        's.created_at',
        's.last_seen_at',
        's.idle_expires_at',
        's.absolute_expires_at',
        // Only what user data is built from: every column more is parsed and sent on each request.
        'p.id as p_id',
        'p.username as p_username',
        'p.first_name as p_first_name',
        'p.last_name as p_last_name',
        'p.status as p_status',
        'p.locale as p_locale',
        'p.account_number as p_account_number',
        'p.offers_merchandise as p_offers_merchandise',
        'p.offers_experiences as p_offers_experiences',
        'p.ots_enabled as p_ots_enabled',
        'p.privacy_ack_version as p_privacy_ack_version',
        'p.balance as p_balance',
      ])
      .select((eb) =>
        eb
          .selectFrom('participant_programs as pp')
          .select(sql<string[]>`coalesce(json_agg(pp.program_name order by pp.position), '[]'::json)`.as('names'))
          .whereRef('pp.client_id', '=', 's.client_id')
          .whereRef('pp.participant_id', '=', 's.participant_id')
          .as('programs'),
      )
      .where('s.id_hash', '=', idHash)
      .where('s.client_id', '=', clientId),
  // Parsing and planning this join anew cost PostgreSQL ~250 µs a run; prepared, ~60 (decision 034).
  { prepared: true },
);

export interface SessionWithUser {
  session: Session;
  /** undefined when the session's participant is gone. */
  participant: UserParticipant | undefined;
  programs: string[];
}

/** PostgreSQL only: see selectSessionWithUser. */
export async function findSessionWithUser(db: Db, clientId: string, idHash: string): Promise<SessionWithUser | undefined> {
  const { rows } = await selectSessionWithUser(db, idHash, clientId);
  const row = rows[0];
  if (!row) return undefined;
  const session: Session = {
    id_hash: row.id_hash,
    client_id: row.client_id,
    participant_id: row.participant_id,
    admin_as_user: row.admin_as_user,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    idle_expires_at: row.idle_expires_at,
    absolute_expires_at: row.absolute_expires_at,
  };
  const participant: UserParticipant | undefined =
    row.p_id === null
      ? undefined
      : {
          id: row.p_id,
          client_id: row.client_id,
          username: row.p_username!,
          first_name: row.p_first_name!,
          last_name: row.p_last_name!,
          status: row.p_status!,
          locale: row.p_locale!,
          account_number: row.p_account_number!,
          offers_merchandise: row.p_offers_merchandise!,
          offers_experiences: row.p_offers_experiences!,
          ots_enabled: row.p_ots_enabled!,
          privacy_ack_version: row.p_privacy_ack_version!,
          balance: row.p_balance,
        };
  return { session, participant, programs: row.programs ?? [] };
}

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
