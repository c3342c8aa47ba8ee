import { randomBytes } from 'node:crypto';
import type { CatalogOffering, CatalogSettings, CatalogSettingsRequest, PartnerSecret } from '@rewards/contract/console-clients';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { ErrorCode } from '@rewards/contract';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import { partnerSecretHash } from '../catalog/partner-service.ts';
import {
  catalogsNaming,
  findCatalogPartner,
  insertCatalogPartner,
  listCatalogPartners,
  readClientCatalogs,
  setClientCatalog,
  updateCatalogPartner,
} from '../catalog/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { CatalogUrl } from './program-settings.ts';
import { readClient } from './store.ts';

/*
 * A client's merchandise and experiences catalogs and their partners (issue 20 §3, part H, decision
 * 065): the console's PUT and POST …/secret; `rewards clients --new-partner-secret` and a new
 * `--merchandise-partner` use newPartnerSecret. A secret is in the reply that issues it and nowhere
 * else: the table keeps its SHA-256, the audit the partner's id.
 */

export const PartnerId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a partner id is 1 to 100 letters, digits, dots, hyphens or underscores');

const OFFERINGS = ['merchandise', 'experiences'] as const;

/** A partner secret: 256 random bits, URL-safe so it fits HTTP Basic as it is. */
export function newPartnerSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** As they are now; 404 for an unknown client. */
export async function readCatalogSettings(db: Db, clientId: string): Promise<CatalogSettings> {
  if (!(await readClient(db, clientId))) throw errors.notFound();
  const [catalogs, partners] = await Promise.all([readClientCatalogs(db, clientId), listCatalogPartners(db, clientId)]);
  const offering = (kind: string): CatalogOffering | null => {
    const row = catalogs.find((c) => c.kind === kind);
    return row ? { url: row.url, partnerId: row.partner_id ?? '' } : null;
  };
  return {
    merchandise: offering('merchandise'),
    experiences: offering('experiences'),
    partners: partners.map((p) => ({ id: p.id, name: p.name, createdAt: p.created_at, revokedAt: p.revoked_at })),
  };
}

function checkOffering(kind: string, value: CatalogOffering | null): CatalogOffering | null {
  if (value === null) return null;
  const url = CatalogUrl.safeParse(value.url);
  if (!url.success) throw errors.validation(`the ${kind} catalog: ${url.error.issues[0]?.message ?? 'invalid'}`);
  const partnerId = PartnerId.safeParse(value.partnerId.trim());
  if (!partnerId.success) throw errors.validation(`the ${kind} partner: ${partnerId.error.issues[0]?.message ?? 'invalid'}`);
  return { url: url.data, partnerId: partnerId.data };
}

/**
 * Sets both offerings in one transaction with one `clients.settings` audit entry (each changed
 * offering from and to, the partners issued a secret, the reason). A partner id new to the
 * installation is created with a secret returned here only; one of another client is refused.
 */
export async function setCatalogSettings(
  db: Db,
  actor: Actor,
  clientId: string,
  change: Omit<CatalogSettingsRequest, 'reason'>,
  reason?: string,
  now = new Date(),
): Promise<{ to: CatalogSettings; auditId: string | null; secrets: PartnerSecret[] }> {
  const to = {
    merchandise: checkOffering('merchandise', change.merchandise),
    experiences: checkOffering('experiences', change.experiences),
  };
  return db.transaction().execute(async (trx) => {
    const from = await readCatalogSettings(trx, clientId);
    const secrets: PartnerSecret[] = [];
    const details: Record<string, unknown> = {};
    for (const kind of OFFERINGS) {
      const wanted = to[kind];
      if (JSON.stringify(from[kind]) === JSON.stringify(wanted)) continue;
      if (wanted !== null && !secrets.some((s) => s.partnerId === wanted.partnerId)) {
        const issued = await ensureCatalogPartner(trx, clientId, wanted.partnerId, `the ${kind} partner`, now);
        if (issued) secrets.push(issued);
      }
      await setClientCatalog(trx, clientId, kind, wanted);
      details[`catalogs.${kind}`] = { from: from[kind], to: wanted };
    }
    if (Object.keys(details).length === 0) return { to: from, auditId: null, secrets };
    const auditId = await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'clients.settings',
        subject: clientId,
        details: {
          ...details,
          ...(secrets.length > 0 ? { partnerSecretsIssued: secrets.map((s) => s.partnerId) } : {}),
          ...(reason === undefined ? {} : { reason }),
        },
        origin: actor.origin,
      },
      now,
    );
    return { to: await readCatalogSettings(trx, clientId), auditId, secrets };
  });
}

/**
 * The partner a catalog of the client is to name (`label` says which, in the refusal): a partner id
 * new to the installation is created with a secret, returned here to be shown once; one of another
 * client, or a revoked one, is refused. The console's PUT and `rewards clients update` both call it.
 */
export async function ensureCatalogPartner(
  db: Db,
  clientId: string,
  partnerId: string,
  label: string,
  now: Date,
): Promise<PartnerSecret | null> {
  const partner = await findCatalogPartner(db, partnerId);
  if (partner && partner.client_id !== clientId)
    throw errors.validation(`${label}: ${partnerId} belongs to another client; choose another`);
  if (partner?.revoked_at) throw revokedError(partnerId, partner.revoked_at, 'a catalog cannot name it again; choose a new partner id');
  if (partner) return null;
  const client = await readClient(db, clientId);
  if (!client) throw errors.notFound();
  const secret = newPartnerSecret();
  await insertCatalogPartner(db, {
    id: partnerId,
    client_id: clientId,
    name: `${client.name} catalog`,
    secret_hash: partnerSecretHash(secret),
    created_at: now.toISOString(),
    revoked_at: null,
  });
  return { partnerId, secret };
}

function revokedError(partnerId: string, revokedAt: string, what: string) {
  return new ApiError(
    409,
    ErrorCode.catalogPartnerConflict,
    'catalogs.error.partnerConflict',
    `Partner ${partnerId} was revoked on ${revokedAt.slice(0, 10)}: ${what}`,
    { partnerId, revokedAt, reason: 'revoked' },
  );
}

/** The client's partner, in service; 404 when it is not the client's, 409 when it was revoked (`what` says what cannot be done). */
async function partnerInService(db: Db, clientId: string, partnerId: string, what: string): Promise<void> {
  const partner = await findCatalogPartner(db, partnerId);
  if (partner?.client_id !== clientId) throw errors.notFound();
  if (partner.revoked_at) throw revokedError(partnerId, partner.revoked_at, what);
}

/** A new secret for the client's partner in service: only its hash is stored; the secret is returned to be shown once. */
export async function renewPartnerSecret(db: Db, clientId: string, partnerId: string): Promise<string> {
  await partnerInService(db, clientId, partnerId, 'it gets no new secret');
  const secret = newPartnerSecret();
  await updateCatalogPartner(db, clientId, partnerId, { secret_hash: partnerSecretHash(secret) });
  return secret;
}

/**
 * Replaces a partner's secret with a new one (the old one stops working at once), audited with the
 * partner's id only. The caller shows the secret this once. 404 when the partner is not the client's.
 */
export async function rotatePartnerSecret(
  db: Db,
  actor: Actor,
  clientId: string,
  partnerId: string,
  reason?: string,
  now = new Date(),
): Promise<PartnerSecret & { auditId: string }> {
  return db.transaction().execute(async (trx) => {
    const secret = await renewPartnerSecret(trx, clientId, partnerId);
    const auditId = await auditPartner(trx, actor, clientId, partnerId, 'clients.partner-secret', reason, now);
    return { partnerId, secret, auditId };
  });
}

/**
 * Revokes a partner that no catalog names any more (a partner that has left the program): its
 * secret stops working at once, its punch-out links with it, and no catalog may name it again. The
 * row stays, with its orders and their reports; audited with the reason. 409 while a catalog names
 * it, or when it was revoked already; 404 when it is not the client's.
 */
export async function revokePartner(
  db: Db,
  actor: Actor,
  clientId: string,
  partnerId: string,
  reason?: string,
  now = new Date(),
): Promise<{ partnerId: string; revokedAt: string; auditId: string }> {
  return db.transaction().execute(async (trx) => {
    await partnerInService(trx, clientId, partnerId, 'nothing to do');
    const using = await catalogsNaming(trx, clientId, partnerId);
    if (using.length > 0)
      throw new ApiError(
        409,
        ErrorCode.catalogPartnerConflict,
        'catalogs.error.partnerConflict',
        `The ${using.join(' and ')} catalog names partner ${partnerId}: point it to another partner or withdraw it first; nothing was revoked`,
        { partnerId, catalogs: using.join(', '), reason: 'inUse' },
      );
    const revokedAt = now.toISOString();
    // An empty hash matches no secret (partner-service.ts compares 32-byte digests).
    await updateCatalogPartner(trx, clientId, partnerId, { secret_hash: '', revoked_at: revokedAt });
    const auditId = await auditPartner(trx, actor, clientId, partnerId, 'clients.partner-revoked', reason, now);
    return { partnerId, revokedAt, auditId };
  });
}

/** A partner's audit entry: its id and the reason, never a secret. */
function auditPartner(db: Db, actor: Actor, clientId: string, partnerId: string, action: string, reason: string | undefined, now: Date) {
  return recordAudit(
    db,
    {
      clientId,
      actor: actor.name,
      actorKind: actor.kind,
      action,
      subject: partnerId,
      details: { partnerId, ...(reason === undefined ? {} : { reason }) },
      origin: actor.origin,
    },
    now,
  );
}
