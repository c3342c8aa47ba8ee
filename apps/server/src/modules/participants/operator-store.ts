import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NewParticipant } from './tables.ts';

/** A database or a transaction: the operator's reads run in either. */
type Q = Kysely<Database>;

/** Rows per multi-row INSERT: 28 values a participant (search keys included) stay below both engines' limit of bound values. */
const INSERT_CHUNK = 500;

/** The columns an operator compares and sets (never the password hash). */
export const OPERATOR_COLUMNS = [
  'id',
  'username',
  'username_key',
  'email',
  'first_name',
  'last_name',
  'status',
  'locale',
  'account_number',
  'offers_merchandise',
  'offers_experiences',
  'ots_enabled',
  'date_of_birth',
] as const;

export async function findParticipantsByKeys(db: Q, clientId: string, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return db
    .selectFrom('participants')
    .select(OPERATOR_COLUMNS)
    .where('client_id', '=', clientId)
    .where('username_key', 'in', keys)
    .execute();
}

/** Who holds each of these account numbers, by username key. */
export async function accountNumberOwners(
  db: Q,
  clientId: string,
  accountNumbers: readonly string[],
): Promise<Map<string, { key: string; username: string }>> {
  if (accountNumbers.length === 0) return new Map();
  const rows = await db
    .selectFrom('participants')
    .select(['account_number', 'username_key', 'username'])
    .where('client_id', '=', clientId)
    .where('account_number', 'in', accountNumbers)
    .execute();
  return new Map(rows.map((row) => [row.account_number, { key: row.username_key, username: row.username }]));
}

/** Program names of each participant, in their order. */
export async function programsOf(db: Q, clientId: string, participantIds: readonly string[]): Promise<Map<string, string[]>> {
  const programs = new Map<string, string[]>();
  if (participantIds.length === 0) return programs;
  const rows = await db
    .selectFrom('participant_programs')
    .select(['participant_id', 'program_name'])
    .where('client_id', '=', clientId)
    .where('participant_id', 'in', participantIds)
    .orderBy('participant_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const list = programs.get(row.participant_id);
    if (list) list.push(row.program_name);
    else programs.set(row.participant_id, [row.program_name]);
  }
  return programs;
}

/**
 * New and changed participants in a few multi-row statements: a row whose (client, username
 * key) exists updates the operator's columns in place (its id, password, balance and creation
 * time stay), any other is inserted. Both engines read `excluded` the same way.
 */
export async function upsertParticipants(db: Q, rows: readonly NewParticipant[]): Promise<void> {
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    await db
      .insertInto('participants')
      .values(rows.slice(from, from + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['client_id', 'username_key']).doUpdateSet((eb) => ({
          username: eb.ref('excluded.username'),
          email: eb.ref('excluded.email'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          status: eb.ref('excluded.status'),
          locale: eb.ref('excluded.locale'),
          account_number: eb.ref('excluded.account_number'),
          offers_merchandise: eb.ref('excluded.offers_merchandise'),
          offers_experiences: eb.ref('excluded.offers_experiences'),
          ots_enabled: eb.ref('excluded.ots_enabled'),
          date_of_birth: eb.ref('excluded.date_of_birth'),
          updated_at: eb.ref('excluded.updated_at'),
          search_first_last: eb.ref('excluded.search_first_last'),
          search_first_last_hidden: eb.ref('excluded.search_first_last_hidden'),
          search_last_first: eb.ref('excluded.search_last_first'),
          search_last_first_hidden: eb.ref('excluded.search_last_first_hidden'),
          search_username: eb.ref('excluded.search_username'),
          search_username_hidden: eb.ref('excluded.search_username_hidden'),
          search_email: eb.ref('excluded.search_email'),
          search_email_hidden: eb.ref('excluded.search_email_hidden'),
          search_account: eb.ref('excluded.search_account'),
          search_account_hidden: eb.ref('excluded.search_account_hidden'),
        })),
      )
      .execute();
  }
}

/** Replaces the programs of these participants with the given lists, in bulk. */
export async function replacePrograms(db: Q, clientId: string, programs: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const ids = [...programs.keys()];
  if (ids.length === 0) return;
  await db.deleteFrom('participant_programs').where('client_id', '=', clientId).where('participant_id', 'in', ids).execute();
  const rows = [...programs].flatMap(([participantId, names]) =>
    names.map((program_name, position) => ({ client_id: clientId, participant_id: participantId, program_name, position })),
  );
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    await db
      .insertInto('participant_programs')
      .values(rows.slice(from, from + INSERT_CHUNK))
      .execute();
  }
}

export async function markEmailChangedByStaff(db: Q, clientId: string, participantId: string, at: string): Promise<void> {
  await db
    .updateTable('participants')
    .set({ email_changed_by_staff_at: at })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

export async function setParticipantStatus(
  db: Q,
  clientId: string,
  participantId: string,
  status: string,
  at = new Date().toISOString(),
): Promise<void> {
  await db
    .updateTable('participants')
    .set({ status, updated_at: at })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

/** A page of a client's participants in username order, after a username key (keyset paging). */
export async function participantsPage(db: Q, clientId: string, afterKey: string | undefined, limit: number) {
  let select = db
    .selectFrom('participants')
    .select(['id', 'username', 'username_key', 'locale', 'account_number'])
    .where('client_id', '=', clientId);
  if (afterKey !== undefined) select = select.where('username_key', '>', afterKey);
  return select.orderBy('username_key').limit(limit).execute();
}

/** When a participant last changed as the program API counts it (decision 085); the index serves it. */
const changedAt = sql<string>`coalesce(updated_at, created_at)`;

/**
 * A page of a client's participants in the order of their last change, from `since` on, after the
 * keyset cursor (the last row's change time and id): the program API's `GET participants`.
 */
export async function participantsChangedPage(
  db: Q,
  clientId: string,
  since: string | undefined,
  after: { at: string; id: string } | undefined,
  limit: number,
) {
  let select = db
    .selectFrom('participants')
    .select([...OPERATOR_COLUMNS, 'balance', 'created_at', 'updated_at'])
    .select(changedAt.as('changed_at'))
    .where('client_id', '=', clientId);
  if (since !== undefined) select = select.where(changedAt, '>=', since);
  if (after !== undefined) select = select.where(sql<boolean>`(coalesce(updated_at, created_at), id) > (${after.at}, ${after.id})`);
  return select.orderBy(changedAt).orderBy('id').limit(limit).execute();
}

/** How many participants each client has (or the one named): `rewards clients list|show`. */
export async function countParticipantsByClient(db: Q, clientId?: string): Promise<Map<string, number>> {
  let query = db
    .selectFrom('participants')
    .select(['client_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('client_id');
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  return new Map((await query.execute()).map((r) => [r.client_id, Number(r.count)]));
}
