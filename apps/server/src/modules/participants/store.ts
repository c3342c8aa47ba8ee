import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres, type Db } from '../../db/database.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { Database } from '../../db/schema.ts';
import type { Participant } from './tables.ts';

// Run on nearly every signed-in request: compiled to SQL once (docs/decisions/014), and on
// PostgreSQL parsed and planned once per connection (decision 034).
const selectParticipant = compiledOnce(
  (db: Db, clientId: string, participantId: string) =>
    db.selectFrom('participants').selectAll().where('client_id', '=', clientId).where('id', '=', participantId),
  { prepared: true },
);
const selectProgramNames = compiledOnce(
  (db: Db, clientId: string, participantId: string) =>
    db
      .selectFrom('participant_programs')
      .select('program_name')
      .where('client_id', '=', clientId)
      .where('participant_id', '=', participantId)
      .orderBy('position'),
  { prepared: true },
);

/** The participant's columns that user data is built from (no password hash, no e-mail). */
export type UserParticipant = Pick<
  Participant,
  | 'id'
  | 'client_id'
  | 'username'
  | 'first_name'
  | 'last_name'
  | 'status'
  | 'locale'
  | 'account_number'
  | 'offers_merchandise'
  | 'offers_experiences'
  | 'ots_enabled'
  | 'privacy_ack_version'
  | 'balance'
  | 'pending_points'
>;

const USER_COLUMNS = [
  'id',
  'client_id',
  'username',
  'first_name',
  'last_name',
  'status',
  'locale',
  'account_number',
  'offers_merchandise',
  'offers_experiences',
  'ots_enabled',
  'privacy_ack_version',
  'balance',
  'pending_points',
] as const satisfies ReadonlyArray<keyof UserParticipant>;

/**
 * GET user's read when its cache misses (every request on PostgreSQL, decision 092): the
 * participant's user-data columns and their program names in order, one round trip instead of
 * two. The names come as a JSON array: json_agg on PostgreSQL, json_group_array (over the
 * ordered rows) on SQLite, whose driver answers it as text.
 */
const selectUser = compiledOnce(
  (db: Db, clientId: string, participantId: string) =>
    db
      .selectFrom('participants as p')
      .select(USER_COLUMNS.map((column) => `p.${column}` as const))
      .select(
        isPostgres(db)
          ? sql<
              string[] | string
            >`(select coalesce(json_agg(pp.program_name order by pp.position), '[]'::json) from participant_programs pp where pp.client_id = p.client_id and pp.participant_id = p.id)`.as(
              'programs',
            )
          : sql<
              string[] | string
            >`(select json_group_array(program_name) from (select pp.program_name from participant_programs pp where pp.client_id = p.client_id and pp.participant_id = p.id order by pp.position))`.as(
              'programs',
            ),
      )
      .where('p.client_id', '=', clientId)
      .where('p.id', '=', participantId),
  { prepared: true },
);

/** The participant user data is built from, and their programs in order; undefined when gone. */
export async function findUserParticipant(
  db: Db,
  clientId: string,
  participantId: string,
): Promise<{ participant: UserParticipant; programs: string[] } | undefined> {
  const row = (await selectUser(db, clientId, participantId)).rows[0];
  if (!row) return undefined;
  const { programs, ...participant } = row;
  return { participant, programs: typeof programs === 'string' ? (JSON.parse(programs) as string[]) : programs };
}

export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

export async function findParticipantByUsername(db: Db, clientId: string, username: string) {
  return db
    .selectFrom('participants')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
}

/**
 * A participant by username with the names of their programs, in one read (an event's
 * conditions may name programs, decision 101): the programs as a JSON array, which PostgreSQL's
 * driver parses and SQLite answers as text.
 */
const selectParticipantWithPrograms = compiledOnce(
  (db: Db, clientId: string, key: string) =>
    db
      .selectFrom('participants')
      .selectAll('participants')
      .select((eb) =>
        eb
          .selectFrom('participant_programs as pp')
          .select(
            isPostgres(db)
              ? sql<string>`coalesce(json_agg(pp.program_name order by pp.position), '[]'::json)`.as('programs')
              : sql<string>`json_group_array(pp.program_name order by pp.position)`.as('programs'),
          )
          .whereRef('pp.client_id', '=', 'participants.client_id')
          .whereRef('pp.participant_id', '=', 'participants.id')
          .as('programs'),
      )
      .where('participants.client_id', '=', clientId)
      .where('participants.username_key', '=', key),
  { prepared: true },
);

export async function findParticipantWithPrograms(
  db: Db,
  clientId: string,
  username: string,
): Promise<(Participant & { programs: string[] }) | undefined> {
  const row = (await selectParticipantWithPrograms(db, clientId, usernameKey(username))).rows[0];
  if (row === undefined) return undefined;
  const programs: unknown = typeof row.programs === 'string' ? JSON.parse(row.programs) : row.programs;
  return { ...row, programs: Array.isArray(programs) ? programs.map(String) : [] };
}

export async function findParticipant(
  db: Kysely<Database> | Transaction<Database>,
  clientId: string,
  participantId: string,
): Promise<Participant | undefined> {
  const { rows } = await selectParticipant(db, clientId, participantId);
  return rows[0];
}

export async function listProgramNames(db: Db, clientId: string, participantId: string): Promise<string[]> {
  const { rows } = await selectProgramNames(db, clientId, participantId);
  return rows.map((row) => row.program_name);
}

const movePendingBy = compiledOnce((db: Db, delta: number, clientId: string, participantId: string) =>
  db
    .updateTable('participants')
    .set((eb) => ({ pending_points: eb('pending_points', '+', delta) }))
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .returning(['pending_points', 'balance']),
);

/**
 * Moves the participant's pending total (issue 32 §3, decision 098) in the posting's transaction
 * that keeps, releases or takes back the pending lines, so the total and the lines never differ.
 * Answers the new total and the balance, the row locked until the commit (PostgreSQL; SQLite has
 * one writer): a return reads the balance it may take from so. Undefined when the participant is gone.
 */
export async function addPendingPoints(
  trx: Transaction<Database>,
  clientId: string,
  participantId: string,
  delta: number,
): Promise<{ pendingPoints: number; balance: number } | undefined> {
  const row = (await movePendingBy(trx, delta, clientId, participantId)).rows[0];
  return row === undefined ? undefined : { pendingPoints: Number(row.pending_points), balance: Number(row.balance ?? 0) };
}

export async function updateParticipantLocale(db: Db, clientId: string, participantId: string, locale: string) {
  await db
    .updateTable('participants')
    .set({ locale, updated_at: new Date().toISOString() })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

export async function updatePrivacyAcknowledgement(db: Db, clientId: string, participantId: string, version: number) {
  await db
    .updateTable('participants')
    .set({ privacy_ack_version: version })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

/** The programs some participant of the client is in (their rules are content keys), or those of `only` that are. */
export async function listClientPrograms(db: Db, clientId: string, only?: readonly string[]): Promise<string[]> {
  let query = db.selectFrom('participant_programs').select('program_name').distinct().where('client_id', '=', clientId);
  if (only) {
    if (only.length === 0) return [];
    query = query.where('program_name', 'in', [...only]);
  }
  return (await query.orderBy('program_name').execute()).map((r) => r.program_name);
}

/** A participant by id, only among these clients. */
export async function participantIn(db: Db, participantId: string, clientIds: readonly string[]) {
  if (clientIds.length === 0) return undefined;
  return db
    .selectFrom('participants')
    .select(['id', 'client_id', 'username'])
    .where('id', '=', participantId)
    .where('client_id', 'in', clientIds)
    .executeTakeFirst();
}
