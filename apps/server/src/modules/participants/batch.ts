import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';

/**
 * What a batch of events (an events import's job, decision 099) needs of the participants it
 * names, in a few statements rather than two queries per event: who they are by username, their
 * status and programs (the rules' conditions), and their pending total moved by the batch's
 * pending lines (decision 098's column, in the batch's transaction as the single posting does).
 */

type Tx = Kysely<Database>;

export interface BatchParticipant {
  id: string;
  username: string;
  status: string;
  programs: string[];
}

/** Usernames per read: a power of two (padded()), under both engines' parameter limits. */
const KEYS_PER_READ = 512;

/** The client's participants by username key (participants/store.ts usernameKey), with their programs in order; a key nobody has is absent. */
export async function participantsByUsernameKeys(
  db: Tx,
  clientId: string,
  keys: readonly string[],
): Promise<Map<string, BatchParticipant>> {
  const found = new Map<string, BatchParticipant>();
  const byId = new Map<string, BatchParticipant>();
  const distinct = [...new Set(keys)];
  const postgres = isPostgres(db);
  for (let from = 0; from < distinct.length; from += KEYS_PER_READ) {
    const chunk = padded(distinct.slice(from, from + KEYS_PER_READ));
    const { rows } = await db.executeQuery<{ id: string; username: string; username_key: string; status: string }>(
      CompiledQuery.raw(selectParticipants(chunk.length, postgres), [clientId, ...chunk]),
    );
    for (const row of rows) {
      const participant = { id: row.id, username: row.username, status: row.status, programs: [] };
      found.set(row.username_key, participant);
      byId.set(row.id, participant);
    }
  }
  const ids = [...byId.keys()];
  for (let from = 0; from < ids.length; from += KEYS_PER_READ) {
    const chunk = padded(ids.slice(from, from + KEYS_PER_READ));
    const { rows } = await db.executeQuery<{ participant_id: string; program_name: string }>(
      CompiledQuery.raw(selectPrograms(chunk.length, postgres), [clientId, ...chunk]),
    );
    for (const row of rows) byId.get(row.participant_id)?.programs.push(row.program_name);
  }
  return found;
}

/** Moves the pending totals of a batch's participants by what its pending lines held (decision 098), one UPDATE per 256. */
export async function addPendingPointsMany(trx: Tx, clientId: string, deltas: ReadonlyMap<string, number>): Promise<void> {
  const moves = [...deltas].filter(([, points]) => points !== 0);
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(moves.length, 256)) {
    const parameters: unknown[] = [];
    for (let i = from; i < to; i += 1) parameters.push(moves[i]![0], moves[i]![1]);
    parameters.push(clientId);
    await trx.executeQuery(CompiledQuery.raw(updatePending(to - from, postgres), parameters));
  }
}

function selectParticipants(rows: number, postgres: boolean): string {
  return statementText(`participants.batch.participants:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const client = p();
    const list = Array.from({ length: rows }, p).join(', ');
    return `select id, username, username_key, status from participants where client_id = ${client} and username_key in (${list})`;
  });
}

function selectPrograms(rows: number, postgres: boolean): string {
  return statementText(`participants.batch.programs:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const client = p();
    const list = Array.from({ length: rows }, p).join(', ');
    return `select participant_id, program_name from participant_programs where client_id = ${client} and participant_id in (${list}) order by participant_id, position`;
  });
}

function updatePending(rows: number, postgres: boolean): string {
  return statementText(`participants.batch.pending:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${p()}, cast(${p()} as integer))`).join(', ');
    return `update participants set pending_points = participants.pending_points + d.column2 from (values ${values}) as d where participants.client_id = ${p()} and participants.id = d.column1`;
  });
}
