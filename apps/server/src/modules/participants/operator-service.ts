import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Client } from '../clients/tables.ts';
import type { Participant } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { clientLocales } from '../clients/service.ts';
import { checkParticipant, participantRow } from './fields.ts';
import { queueMail } from '../mail/outbox.ts';
import { tellWebhooks } from '../webhooks/service.ts';
import { accountNumberOwners, markEmailChangedByStaff, programsOf, replacePrograms, upsertParticipants } from './operator-store.ts';

// What an operator reads of participants (`rewards participants show`, `statements export
// --all`) and the program API's changed-since pages (decision 085); enrolling is enrolment.ts
// (decision 053).
export { countParticipantsByClient, participantsChangedPage, participantsPage, programsOf } from './operator-store.ts';

/** Who changes something, for the audit log: an operator's command, a staff member, an admin key. */
export interface Actor {
  name: string;
  kind: AuditActorKind;
  /** Where from: `cli@host`, an address. */
  origin: string;
}

/** What an operator may correct on a participant; what is not given stays. */
export interface ParticipantChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  accountNumber?: string;
  locale?: string;
  offerings?: { merchandise: boolean; experiences: boolean; ots: boolean };
  programs?: string[];
  /** YYYY-MM-DD, or '' for none. */
  dateOfBirth?: string;
}

/**
 * Corrects one participant's details: checked by the same rules as an import line, the fields
 * that differ written with an audit entry naming them (never their values), in one transaction.
 * The status and the password have their own paths. Returns the names of the changed fields.
 */
export async function updateParticipant(
  db: Db,
  actor: Actor,
  client: Client,
  participant: Participant,
  changes: ParticipantChanges,
): Promise<string[]> {
  return (await correctParticipant(db, actor, client, participant, changes)).changed;
}

/**
 * Staff (the console or the command) changed the address participants reset their password
 * with (decision 076): the old address is told, with the new one masked, and for 24 hours no
 * reset or activation link goes to the new one unless a program manager or an owner sends it
 * after a step-up (emailChangeHoldUntil).
 */
async function emailChangedByStaff(trx: Transaction<Database>, client: Client, participant: Participant, newEmail: string): Promise<void> {
  await markEmailChangedByStaff(trx, client.id, participant.id, new Date().toISOString());
  if (!participant.email) return;
  await queueMail(trx, {
    clientId: client.id,
    participantId: participant.id,
    to: participant.email,
    locale: participant.locale,
    template: 'emailChanged',
    params: { maskedEmail: maskEmail(newEmail) },
    origin: client.portal_url,
  });
}

/** How long after staff changed an address it gets no link but from a program manager or an owner who stepped up. */
export const EMAIL_CHANGE_HOLD_HOURS = 24;

/** When the hold on the participant's new address ends (ISO), or undefined when there is none now. */
export function emailChangeHoldUntil(participant: Pick<Participant, 'email_changed_by_staff_at'>, now = new Date()): string | undefined {
  const at = participant.email_changed_by_staff_at;
  if (!at) return undefined;
  const until = Date.parse(at) + EMAIL_CHANGE_HOLD_HOURS * 3_600_000;
  return until > now.getTime() ? new Date(until).toISOString() : undefined;
}

/** `dana.demo@example.com` → `d•••@example.com`: enough for its owner to know it, not enough to write to it. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const local = at < 0 ? address : address.slice(0, at);
  const domain = at < 0 ? '' : address.slice(at);
  return `${local.length > 1 ? local[0] : ''}•••${domain}`;
}

/**
 * The same, with the reason for the audit entry (the console always gives one) and the entry's
 * id (null when nothing changed and nothing was written).
 */
export async function correctParticipant(
  db: Db,
  actor: Actor,
  client: Client,
  participant: Participant,
  changes: ParticipantChanges,
  reason?: string,
): Promise<{ changed: string[]; auditId: string | null }> {
  const before = (await programsOf(db, client.id, [participant.id])).get(participant.id) ?? [];
  const offerings = changes.offerings;
  const checked = checkParticipant(
    {
      username: participant.username,
      first_name: changes.firstName ?? participant.first_name,
      last_name: changes.lastName ?? participant.last_name,
      email: changes.email ?? participant.email,
      locale: changes.locale ?? participant.locale,
      account_number: changes.accountNumber ?? participant.account_number,
      merchandise: String(offerings?.merchandise ?? participant.offers_merchandise === 1),
      experiences: String(offerings?.experiences ?? participant.offers_experiences === 1),
      ots: String(offerings?.ots ?? participant.ots_enabled === 1),
      programs: (changes.programs ?? before).join('|'),
      status: '',
      date_of_birth: changes.dateOfBirth ?? participant.date_of_birth ?? '',
    },
    { locales: (await clientLocales(db, client.id)).map((l) => l.code), defaultLocale: client.default_locale },
  );
  if (!checked.ok) throw errors.validation(checked.reason);
  const fields = checked.fields;
  const changed = [
    fields.firstName !== participant.first_name && 'firstName',
    fields.lastName !== participant.last_name && 'lastName',
    fields.email !== participant.email && 'email',
    fields.accountNumber !== participant.account_number && 'accountNumber',
    fields.locale !== participant.locale && 'locale',
    (fields.merchandise !== (participant.offers_merchandise === 1) ||
      fields.experiences !== (participant.offers_experiences === 1) ||
      fields.ots !== (participant.ots_enabled === 1)) &&
      'offerings',
    fields.programs.join('|') !== before.join('|') && 'programs',
    (fields.dateOfBirth ?? null) !== participant.date_of_birth && 'dateOfBirth',
  ].filter((name): name is string => name !== false);
  if (changed.length === 0) return { changed, auditId: null };
  const auditId = await db.transaction().execute(async (trx) => {
    if (changed.includes('accountNumber')) {
      const owner = (await accountNumberOwners(trx, client.id, [fields.accountNumber])).get(fields.accountNumber);
      if (owner && owner.key !== participant.username_key)
        throw errors.validation(`Account number ${fields.accountNumber} already belongs to "${owner.username}"`);
    }
    await upsertParticipants(trx, [
      participantRow(fields, {
        id: participant.id,
        clientId: client.id,
        usernameKey: participant.username_key,
        passwordHash: participant.password_hash,
        status: participant.status,
        createdAt: participant.created_at,
        updatedAt: new Date().toISOString(),
      }),
    ]);
    if (changed.includes('programs')) await replacePrograms(trx, client.id, new Map([[participant.id, fields.programs]]));
    if (changed.includes('email')) await emailChangedByStaff(trx, client, participant, fields.email);
    // Told to the client's webhooks with the change: the names of the changed fields (decision 084).
    await tellWebhooks(trx, { clientId: client.id, kind: 'participant.updated', username: participant.username, data: { changed } });
    // Names of the changed fields, never their values (an e-mail address is personal data).
    return recordAudit(trx, {
      clientId: client.id,
      actor: actor.name,
      actorKind: actor.kind,
      action: 'participants.update',
      subject: participant.id,
      details: { username: participant.username, changed, ...(reason === undefined ? {} : { reason }) },
      origin: actor.origin,
    });
  });
  return { changed, auditId };
}
