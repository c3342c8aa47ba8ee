import { randomUUID } from 'node:crypto';
import { meetsPasswordRules, PasswordRules } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Client } from '../clients/tables.ts';
import type { NewParticipant } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import { hashPassword } from '../auth/password.ts';
import { participantRow, resultingStatus, unusablePasswordHash, type ParticipantFields } from './fields.ts';
import type { Actor } from './operator-service.ts';
import { accountNumberOwners, findParticipantsByKeys, programsOf, replacePrograms, upsertParticipants } from './operator-store.ts';
import { findParticipantByUsername, usernameKey } from './store.ts';
import { deleteSessionsOf } from '../sessions/service.ts';
import { tellWebhooks } from '../webhooks/service.ts';

/**
 * Enrolling participants the operator's way (`rewards participants create` and `import`): the
 * fields come checked by fields.ts (checkParticipant); the rules that need the database (a
 * username and an account number are unique in the client, the client's password rules) and
 * the writes are here. Refusals are ApiErrors and change nothing.
 */

export interface CreatedParticipant {
  id: string;
  status: string;
}

/**
 * Enrols one participant with an audit entry, in one transaction. With a password (checked
 * against the client's rules) they may sign in at once; without, they get a hash nobody can
 * sign in with and activate (or reset their password) themselves.
 */
export async function createParticipant(
  db: Db,
  actor: Actor,
  client: Client,
  fields: ParticipantFields,
  password?: string,
  now = new Date(),
): Promise<CreatedParticipant> {
  let passwordHash: string;
  if (password !== undefined) {
    const rules = PasswordRules.parse(JSON.parse(client.password_rules));
    if (!meetsPasswordRules(rules, password, fields.username))
      throw errors.validation("The password does not meet the client's password rules");
    passwordHash = await hashPassword(password);
  } else {
    passwordHash = await unusablePasswordHash();
  }
  const id = randomUUID();
  const status = fields.status ?? 'pending';
  await db.transaction().execute(async (trx) => {
    if (await findParticipantByUsername(trx, client.id, fields.username))
      throw errors.validation(`Username "${fields.username}" is already taken in client "${client.id}"`);
    const owner = (await accountNumberOwners(trx, client.id, [fields.accountNumber])).get(fields.accountNumber);
    if (owner) throw errors.validation(`Account number ${fields.accountNumber} already belongs to "${owner.username}"`);
    await upsertParticipants(trx, [
      participantRow(fields, {
        id,
        clientId: client.id,
        usernameKey: usernameKey(fields.username),
        passwordHash,
        status,
        createdAt: now.toISOString(),
      }),
    ]);
    await replacePrograms(trx, client.id, new Map([[id, fields.programs]]));
    await recordAudit(
      trx,
      {
        clientId: client.id,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'participants.create',
        subject: fields.username,
        details: { status, accountNumber: fields.accountNumber, passwordSet: password !== undefined },
        origin: actor.origin,
      },
      now,
    );
    // Told to the client's webhooks with the change (decision 084).
    await tellWebhooks(trx, { clientId: client.id, kind: 'participant.created', username: fields.username, data: { status } }, now);
  });
  return { id, status };
}

/** A line of an import file that passed the checks that need no database. */
export interface ImportLine {
  line: number;
  fields: ParticipantFields;
}

export interface ImportBatchOutcome {
  added: number;
  updated: number;
  unchanged: number;
  sessionsEnded: number;
  rejects: Array<{ line: number; reason: string }>;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * One batch of an import in one transaction: three reads (the participants, the holders of the
 * account numbers, the programs), then one multi-row upsert of the new and changed, the
 * programs of those whose list changed, and the sessions of those who can no longer use the
 * portal. Matching is on the username key, so a re-run updates what changed and never
 * duplicates. New participants get `passwordHash` (an unusable one: see unusablePasswordHash).
 */
export async function writeParticipantBatch(
  db: Db,
  clientId: string,
  batch: readonly ImportLine[],
  passwordHash: string,
  now = new Date(),
): Promise<ImportBatchOutcome> {
  return db.transaction().execute((trx) => applyParticipantBatch(trx, clientId, batch, passwordHash, now, { write: true }));
}

/**
 * writeParticipantBatch's work in the caller's transaction (the console's import job commits its
 * progress with it); with `write: false` it only counts what it would do (the import's preview).
 */
export async function applyParticipantBatch(
  trx: Db,
  clientId: string,
  batch: readonly ImportLine[],
  passwordHash: string,
  now: Date,
  options: { write: boolean },
): Promise<ImportBatchOutcome> {
  const outcome: ImportBatchOutcome = { added: 0, updated: 0, unchanged: 0, sessionsEnded: 0, rejects: [] };
  const existing = new Map(
    (
      await findParticipantsByKeys(
        trx,
        clientId,
        batch.map((b) => usernameKey(b.fields.username)),
      )
    ).map((p) => [p.username_key, p]),
  );
  const owners = await accountNumberOwners(
    trx,
    clientId,
    batch.map((b) => b.fields.accountNumber),
  );
  const currentPrograms = await programsOf(
    trx,
    clientId,
    [...existing.values()].map((p) => p.id),
  );
  const upserts: NewParticipant[] = [];
  const programs = new Map<string, string[]>();
  const signedOut: string[] = [];

  for (const { line, fields } of batch) {
    const key = usernameKey(fields.username);
    const owner = owners.get(fields.accountNumber);
    if (owner && owner.key !== key) {
      outcome.rejects.push({
        line,
        reason: `account number ${fields.accountNumber} belongs to another participant ("${owner.username}")`,
      });
      continue;
    }
    const current = existing.get(key);
    const status = resultingStatus(current?.status, fields.status);
    // A file without the date_of_birth column leaves the date on file as it is.
    const dateOfBirth = fields.dateOfBirth === undefined ? (current?.date_of_birth ?? null) : fields.dateOfBirth;
    const row = participantRow(
      { ...fields, dateOfBirth },
      { id: current?.id ?? randomUUID(), clientId, usernameKey: key, passwordHash, status, createdAt: now.toISOString() },
    );
    if (!current) {
      outcome.added += 1;
      upserts.push(row);
      if (fields.programs.length > 0) programs.set(row.id, fields.programs);
      continue;
    }
    const programsChanged = !sameList(currentPrograms.get(current.id) ?? [], fields.programs);
    const rowChanged =
      current.username !== row.username ||
      current.email !== row.email ||
      current.first_name !== row.first_name ||
      current.last_name !== row.last_name ||
      current.status !== row.status ||
      current.locale !== row.locale ||
      current.account_number !== row.account_number ||
      Number(current.offers_merchandise) !== row.offers_merchandise ||
      Number(current.offers_experiences) !== row.offers_experiences ||
      Number(current.ots_enabled) !== row.ots_enabled ||
      current.date_of_birth !== row.date_of_birth;
    if (!rowChanged && !programsChanged) {
      outcome.unchanged += 1;
      continue;
    }
    outcome.updated += 1;
    // Also when only the programs changed: the row's updated_at moves with them (decision 085).
    upserts.push(row);
    if (programsChanged) programs.set(current.id, fields.programs);
    // As `set-status`: who is made pending or inactive is signed out everywhere.
    if (current.status !== status && status !== 'active') signedOut.push(current.id);
  }

  if (!options.write) return outcome;
  await upsertParticipants(trx, upserts);
  await replacePrograms(trx, clientId, programs);
  outcome.sessionsEnded = await deleteSessionsOf(trx, clientId, signedOut);
  return outcome;
}
