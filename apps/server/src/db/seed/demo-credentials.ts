import type { Db } from '../database.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../../modules/audit/service.ts';
import { verifyPassword } from '../../modules/auth/password.ts';
import { partnerSecretHash } from '../../modules/catalog/partner-service.ts';
import { unusablePasswordHash } from '../../modules/participants/fields.ts';
import type { Actor } from '../../modules/participants/operator-service.ts';
import { DEMO_CATALOG_PARTNER_SECRET } from './demo-catalog.ts';
import { DEMO_PASSWORD, demoParticipantKeys } from './demo.ts';
import { DEMO_STAFF } from './demo-staff.ts';

/*
 * The demo's published credentials in a database (decision 072): a production start refuses to
 * serve while any is there (main.ts), and `rewards demo remove` takes them away. Beside the seed,
 * which alone knows what it made: the console's demo staff (password and TOTP secrets in the
 * README), the demo catalog's partner (its secret in the README) and the participants' one hash
 * of the published password.
 */

export interface PublishedDemoCredentials {
  /** The console's demo staff, by e-mail: their password and second factor are in the README. */
  staff: string[];
  /** Catalog partners in service whose secret is the demo catalog's public one. */
  partners: Array<{ id: string; clientId: string }>;
  /** How many participants can sign in with the published demo password. */
  participants: number;
  /** The stored hash strings that verify the published password (the seed's one hash, normally). */
  passwordHashes: string[];
}

const DEMO_STAFF_KEYS = DEMO_STAFF.map((person) => person.email.toLowerCase());
const DEMO_PARTNER_SECRET_HASH = partnerSecretHash(DEMO_CATALOG_PARTNER_SECRET);
/** The demo catalog's own catalogs point here; production never serves it. */
const DEMO_CATALOG_URLS = '/demo-catalog/%';

export function holdsPublishedDemo(found: PublishedDemoCredentials): boolean {
  return found.staff.length > 0 || found.partners.length > 0 || found.participants > 0;
}

/**
 * The hash strings of the published password the database holds, without an argon2 run per
 * participant (35 ms each: hours on a million). The seed hashes the password once and gives that
 * one string to every participant it makes, so the strings its own participants hold now (found
 * by client and username on the unique index) are the only candidates, and each distinct one is
 * verified once: a demo participant who chose a password since holds a string of their own, which
 * fails. A participant who chose the demo password themselves is not the seed's doing and is not
 * looked for.
 */
async function publishedPasswordHashes(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('participants')
    .select('password_hash')
    .distinct()
    .where((eb) =>
      eb.or(
        demoParticipantKeys().map(({ clientId, usernameKeys }) =>
          eb.and([eb('client_id', '=', clientId), eb('username_key', 'in', usernameKeys)]),
        ),
      ),
    )
    .execute();
  const verified = await Promise.all(
    rows.map(async ({ password_hash }) =>
      (await verifyPassword(password_hash, DEMO_PASSWORD).catch(() => false)) ? password_hash : undefined,
    ),
  );
  return verified.filter((hash): hash is string => hash !== undefined);
}

/** What of the demo's published credentials the database holds; a few indexed reads and an argon2 run per distinct candidate hash. */
export async function findPublishedDemoCredentials(db: Db): Promise<PublishedDemoCredentials> {
  const [staff, partners, passwordHashes] = await Promise.all([
    db.selectFrom('staff').select('email').where('email_key', 'in', DEMO_STAFF_KEYS).orderBy('email_key').execute(),
    db
      .selectFrom('catalog_partners')
      .select(['id', 'client_id'])
      .where('secret_hash', '=', DEMO_PARTNER_SECRET_HASH)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute(),
    publishedPasswordHashes(db),
  ]);
  const participants =
    passwordHashes.length === 0
      ? 0
      : Number(
          (
            await db
              .selectFrom('participants')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('password_hash', 'in', passwordHashes)
              .executeTakeFirstOrThrow()
          ).n,
        );
  return {
    staff: staff.map((s) => s.email),
    partners: partners.map((p) => ({ id: p.id, clientId: p.client_id })),
    participants,
    passwordHashes,
  };
}

/** One line per kind found, for the production start's refusal and `rewards demo check`. */
export function describePublishedDemo(found: PublishedDemoCredentials): string[] {
  const lines: string[] = [];
  if (found.staff.length > 0)
    lines.push(
      `${found.staff.length} demo staff of the console (${found.staff.join(', ')}): their password and second factor are published`,
    );
  if (found.participants > 0) lines.push(`${found.participants} participant(s) whose password is the demo's published one`);
  for (const partner of found.partners)
    lines.push(`catalog partner ${partner.id} (client ${partner.clientId}), whose secret is the demo catalog's public one`);
  return lines;
}

export interface DemoRemoval {
  /** The demo staff deleted, by e-mail (with their roles, sessions, links, passkeys and recovery codes). */
  staffRemoved: string[];
  /** The partners revoked: secret void, never to be named by a catalog again. */
  partnersRevoked: string[];
  /** Catalogs withdrawn: those naming a revoked partner, and the demo catalog's own (/demo-catalog/…). */
  catalogsWithdrawn: number;
  /** Participants whose published password was replaced by one nobody knows. */
  participantsLocked: number;
  /** Their portal sessions, ended. */
  sessionsEnded: number;
  /** Active owners left: none means the next step is `rewards staff create … --owner`. */
  ownersLeft: number;
  /** The audit entry; null when there was nothing to remove. */
  auditId: string | null;
}

/**
 * Takes away what would let a stranger in with the README (decision 072), in one transaction
 * with one installation-wide audit entry: the demo staff are deleted; the demo partner is revoked
 * (as the console revokes one: the row stays for its orders) and the catalogs naming it or the
 * demo catalog withdrawn; the participants holding the published password get an unusable one, as
 * participants who never activated have, and their sessions end. Nothing else of the demo programs
 * goes: their participants, points and settings stay, and nobody can sign in to them (a reset
 * mail goes to example.com addresses). Running it again finds nothing and writes nothing.
 */
export async function removePublishedDemoCredentials(db: Db, actor: Actor, reason: string, now = new Date()): Promise<DemoRemoval> {
  const why = reason.trim();
  if (why.length < 3 || why.length > 500) throw errors.validation('A reason of 3 to 500 characters is required');
  // The argon2 work before the transaction; inside it each kind is found again by what made it published.
  const found = await findPublishedDemoCredentials(db);
  const replacement = found.passwordHashes.length > 0 ? await unusablePasswordHash() : undefined;
  return db.transaction().execute(async (trx) => {
    const staff = await trx.selectFrom('staff').select('email').where('email_key', 'in', DEMO_STAFF_KEYS).orderBy('email_key').execute();
    // Their roles, sessions, enrolment links, passkeys, recovery codes and provider links go with them (ON DELETE CASCADE).
    if (staff.length > 0) await trx.deleteFrom('staff').where('email_key', 'in', DEMO_STAFF_KEYS).execute();

    const partners = await trx
      .selectFrom('catalog_partners')
      .select('id')
      .where('secret_hash', '=', DEMO_PARTNER_SECRET_HASH)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
    const partnerIds = partners.map((p) => p.id);
    const withdrawn = await trx
      .deleteFrom('client_catalogs')
      .where((eb) => eb.or([eb('url', 'like', DEMO_CATALOG_URLS), ...(partnerIds.length > 0 ? [eb('partner_id', 'in', partnerIds)] : [])]))
      .executeTakeFirst();
    // An empty hash matches no secret (partner-service.ts compares 32-byte digests), as a console revocation leaves it.
    if (partnerIds.length > 0)
      await trx
        .updateTable('catalog_partners')
        .set({ secret_hash: '', revoked_at: now.toISOString() })
        .where('id', 'in', partnerIds)
        .execute();

    let participantsLocked = 0;
    let sessionsEnded = 0;
    if (replacement !== undefined) {
      const holders = trx.selectFrom('participants').select('id').where('password_hash', 'in', found.passwordHashes);
      sessionsEnded = Number((await trx.deleteFrom('sessions').where('participant_id', 'in', holders).executeTakeFirst()).numDeletedRows);
      participantsLocked = Number(
        (
          await trx
            .updateTable('participants')
            .set({ password_hash: replacement })
            .where('password_hash', 'in', found.passwordHashes)
            .executeTakeFirst()
        ).numUpdatedRows,
      );
    }

    const ownersLeft = Number(
      (
        await trx
          .selectFrom('staff')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner', '=', 1)
          .where('status', '=', 'active')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const catalogsWithdrawn = Number(withdrawn.numDeletedRows);
    const removal = {
      staffRemoved: staff.map((s) => s.email),
      partnersRevoked: partnerIds,
      catalogsWithdrawn,
      participantsLocked,
      sessionsEnded,
      ownersLeft,
    };
    const changed = staff.length + partnerIds.length + catalogsWithdrawn + participantsLocked > 0;
    const auditId = changed
      ? await recordAudit(
          trx,
          {
            clientId: null,
            actor: actor.name,
            actorKind: actor.kind,
            action: 'demo.remove',
            subject: null,
            details: {
              staffRemoved: removal.staffRemoved,
              partnersRevoked: partnerIds,
              catalogsWithdrawn,
              participantsLocked,
              sessionsEnded,
              reason: why,
            },
            origin: actor.origin,
          },
          now,
        )
      : null;
    return { ...removal, auditId };
  });
}
