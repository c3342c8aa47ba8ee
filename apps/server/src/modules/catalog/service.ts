import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { CatalogType, type CatalogTokenClaims } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Participant } from '../participants/tables.ts';
import type { Session } from '../sessions/tables.ts';
import { errors } from '../../http/api-error.ts';
import { findParticipant } from '../participants/service.ts';
import { catalogErrors } from './errors.ts';
import type { SigningKey } from './signing-key.ts';
import { deleteExpiredPunchouts, findClientCatalog, insertPunchout, punchOutKinds } from './store.ts';

// What other modules may use of this module's store, named here: they call the service, never
// the store (decision 053).
export { findClientCatalog } from './store.ts';
// A participant's orders for the console's participant page, the orders per month for the reports (issue 30 §3).
export { orderMonthsCreated, participantOrders } from './store.ts';
// A client's catalogs and partners as its settings change them (modules/clients, decision 089).
export {
  catalogsNaming,
  findCatalogPartner,
  insertCatalogPartner,
  listCatalogPartners,
  readClientCatalogs,
  setClientCatalog,
  updateCatalogPartner,
} from './settings-store.ts';

/** A punch-out link lives this long: long enough to open, too short to be worth stealing. */
export const TOKEN_LIFETIME_SECONDS = 5 * 60;

/** Redeemed and unredeemed rows alike are kept a day past expiry: a late use is then told "expired", not "unknown". */
const PUNCHOUT_KEPT_MS = 24 * 60 * 60_000;

function offers(participant: Pick<Participant, 'offers_merchandise' | 'offers_experiences'>, type: CatalogType): boolean {
  return type === 'merchandise' ? participant.offers_merchandise === 1 : participant.offers_experiences === 1;
}

/**
 * GET user/catalog-url/{type}: a signed, short-lived link to the client's catalog of that type,
 * telling the catalog who the participant is. `portalOrigin` is the origin the participant
 * uses (the client-id header): the token's issuer, and the base of a relative catalog URL.
 * The link's jti is recorded with the session that asked, so the catalog can redeem it once,
 * and only while that session lives (docs/decisions/043).
 */
export async function catalogUrl(
  db: Db,
  signingKey: () => Promise<SigningKey>,
  session: Session,
  rawType: string,
  portalOrigin: string,
  now = new Date(),
): Promise<string> {
  const type = CatalogType.safeParse(rawType);
  if (!type.success) throw catalogErrors.unknownType();
  // Opening a catalog is spending: an administrator acting as the participant may not.
  if (session.admin_as_user === 1) throw errors.forbidden();
  const participant = await findParticipant(db, session.client_id, session.participant_id);
  if (!participant) throw errors.sessionRequired();
  if (!offers(participant, type.data)) throw errors.forbidden();
  const catalog = await findClientCatalog(db, session.client_id, type.data);
  if (!catalog?.partner_id) throw catalogErrors.unavailable();
  const url = catalogLocation(catalog.url, portalOrigin);

  const claims: Omit<CatalogTokenClaims, 'sub' | 'jti'> = {
    name: `${participant.first_name} ${participant.last_name}`.trim(),
    locale: participant.locale,
    balance: participant.balance,
    client: participant.client_id,
    offering: type.data,
  };
  const key = await signingKey();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const jti = randomUUID();
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuer(portalOrigin)
    .setAudience(catalog.partner_id)
    .setSubject(participant.id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
    .setJti(jti)
    .sign(key.privateKey);
  await deleteExpiredPunchouts(db, new Date(now.getTime() - PUNCHOUT_KEPT_MS).toISOString());
  await insertPunchout(db, {
    client_id: session.client_id,
    jti,
    partner_id: catalog.partner_id,
    participant_id: participant.id,
    offering: type.data,
    session_hash: session.id_hash,
    issued_at: new Date(issuedAt * 1000).toISOString(),
    expires_at: new Date((issuedAt + TOKEN_LIFETIME_SECONDS) * 1000).toISOString(),
    redeemed_at: null,
  });
  url.searchParams.set('token', token);
  return url.toString();
}

/** The configured URL, relative to the portal origin if it is a path; only http(s) is a catalog. */
function catalogLocation(configured: string, portalOrigin: string): URL {
  try {
    const url = new URL(configured, portalOrigin);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  } catch {
    // falls through: a misconfigured catalog is an unavailable one
  }
  throw catalogErrors.unavailable();
}

/**
 * User data's rewardsOfferingUnavailable: the participant has offerings but the client has a
 * catalog for none of them (one missing catalog of two shows only that tile as down, through
 * its catalog-url call failing).
 */
export async function rewardsOfferingUnavailable(
  db: Db,
  participant: Pick<Participant, 'client_id' | 'offers_merchandise' | 'offers_experiences'>,
): Promise<boolean> {
  const offered = CatalogType.options.filter((type) => offers(participant, type));
  if (offered.length === 0) return false;
  const configured = await punchOutKinds(db, participant.client_id);
  return offered.every((type) => !configured.has(type));
}

/** The origin of the client-id header (already resolved to a client by the client context). */
export function originOf(header: string | string[] | undefined): string {
  if (typeof header !== 'string') throw errors.unknownClient();
  try {
    return new URL(header).origin;
  } catch {
    throw errors.unknownClient();
  }
}
