import type { Locale, UserData } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { LRUCache } from 'lru-cache';
import { clockOptions, fetchKept, generationKey, loadOnMiss, perDatabase } from '../../db/read-cache.ts';
import type { Session } from '../sessions/tables.ts';
import { errors } from '../../http/api-error.ts';
import { rewardsOfferingUnavailable } from '../catalog/service.ts';
import { clientLocales, findClient } from '../clients/service.ts';
import { pendingReleases } from '../events/pending.ts';
import {
  findUserParticipant,
  listProgramNames,
  type UserParticipant,
  updateParticipantLocale,
  updatePrivacyAcknowledgement,
} from './store.ts';

// What other modules may use of this module's store, named here: they call the service, never
// the store (decision 053).
export {
  addPendingPoints,
  findParticipant,
  findParticipantByUsername,
  findParticipantWithPrograms,
  listClientPrograms,
  listProgramNames,
  participantIn,
  usernameKey,
  type UserParticipant,
} from './store.ts';
// What the account, profile, catalog, ledger, codes, reports and backup modules ask of
// participants' rows (issue 30 §3).
export {
  activateParticipant,
  findParticipantByUniqueKey,
  findParticipantByUsernameAndEmail,
  findParticipantsByEmail,
  participantBalance,
  participantsByStatus,
  pointsOwed,
  setPasswordHash,
  usernameOf,
  usernameTakenByOther,
} from './accounts-store.ts';
// The cached balance: the ledger moves it in its posting's transaction; the portal's statement
// reads it with the ledger's entry count as one state; the expiry run and a points import's
// batch read and lock them (issue 30 §3).
export {
  balancesByUsernameKey,
  bulkBalances,
  findStatementVersion,
  lockBalances,
  moveBalance,
  moveBalanceAndPending,
  moveBulkBalances,
  participantsWithPoints,
  usernamesOf,
} from './balance-store.ts';

/** The participant's language if the client still offers it, else the client's default. */
function resolveLocale(offered: Locale[], wanted: string, clientDefault: string): Locale {
  const pick = offered.find((l) => l.code === wanted) ?? offered.find((l) => l.code === clientDefault) ?? offered[0];
  return pick ? { code: pick.code, dir: pick.dir } : { code: clientDefault, dir: 'ltr' };
}

/** User data of spec section 3, as login, GET user and POST user/locale return it. */
export async function buildUserData(
  db: Db,
  participant: UserParticipant,
  session: Pick<Session, 'admin_as_user'>,
  sessionId: string,
  /** Already read with the participant (GET user's one statement, findUserParticipant). */
  programNames?: string[],
): Promise<UserData> {
  const [client, offered, programs, offeringUnavailable] = await Promise.all([
    findClient(db, participant.client_id),
    clientLocales(db, participant.client_id),
    programNames ?? listProgramNames(db, participant.client_id, participant.id),
    rewardsOfferingUnavailable(db, participant),
  ]);
  if (!client) throw errors.unknownClient();
  const version = client.privacy_notice_version;
  // Nothing pending (nearly everyone) costs no statement: the total rides on the participant's row.
  const pendingTotal = Number(participant.pending_points ?? 0);
  const releases = pendingTotal > 0 ? await pendingReleases(db, participant.client_id, participant.id, client.time_zone) : [];
  return {
    authenticated: true,
    sessionId,
    userId: participant.id,
    userName: participant.username,
    firstName: participant.first_name,
    lastName: participant.last_name,
    accountNumber: participant.account_number,
    locale: resolveLocale(offered, participant.locale, client.default_locale),
    accountBalance: participant.balance,
    accountBalanceUnavailable: false,
    rewardsOffering: {
      merchandise: participant.offers_merchandise === 1,
      experiences: participant.offers_experiences === 1,
    },
    rewardsOfferingUnavailable: offeringUnavailable,
    isInActiveHasPoints: participant.status === 'inactive' && (participant.balance ?? 0) > 0,
    participantFeatures: { ots: participant.ots_enabled === 1 },
    adminAsUser: session.admin_as_user === 1,
    privacyNotice: { hasAcknowledged: version > 0 && participant.privacy_ack_version >= version, version },
    participantRules: programs,
    ssoAuthenticated: false,
    pendingPoints: { points: pendingTotal, releases },
  };
}

type StoredUser = Readonly<Omit<UserData, 'sessionId'>>;

/** The request whose participant's data is loaded on a miss. */
interface UserAsked {
  db: Db;
  session: Session;
}

async function loadUser({ db, session }: UserAsked): Promise<StoredUser> {
  const found = await findUserParticipant(db, session.client_id, session.participant_id);
  // A session whose participant is gone is no session; failures are not kept.
  if (!found) throw errors.sessionRequired();
  const { sessionId: _omitted, ...rest } = await buildUserData(db, found.participant, session, '', found.programs);
  return Object.freeze(rest);
}

/**
 * GET user's data per participant (and administrator or not), keyed by the data generation
 * (docs/decisions/027, 054): an award, a redemption, an operator's change to the participant show
 * on the next request, from this process or any other. At most a second old besides (`ttl`),
 * because the client's settings, languages and catalogs come from the configuration cache, whose
 * own bound (CLIENT_CACHE_SECONDS) a generation that does not move must not stretch. ~1.3 kB an
 * entry, so at most ~1.3 MB.
 */
const userDataCache = perDatabase(
  () =>
    new LRUCache<string, StoredUser, UserAsked>({
      max: 1_000,
      ttl: 1_000,
      ...clockOptions,
      ...loadOnMiss(loadUser),
    }),
);

const userKey = (session: Session) => `${session.client_id}\u0000${session.participant_id}\u0000${session.admin_as_user}`;

async function storedUser(db: Db, session: Session): Promise<StoredUser> {
  const key = generationKey(db, userKey(session));
  const asked = { db, session };
  const stored = key === undefined ? await loadUser(asked) : await fetchKept(userDataCache(db), key, asked);
  // Never undefined: loadUser answers or throws.
  if (!stored) throw errors.sessionRequired();
  return stored;
}

export async function getUserData(db: Db, session: Session, sessionId: string): Promise<UserData> {
  return { sessionId, ...(await storedUser(db, session)) };
}

export async function setLocale(db: Db, session: Session, sessionId: string, code: string): Promise<UserData> {
  // The participant's own setting (it also picks their mails' language): not an administrator's to change (docs/decisions/025).
  if (session.admin_as_user === 1) throw errors.forbidden();
  const offered = await clientLocales(db, session.client_id);
  const locale = offered.find((l) => l.code.toLowerCase() === code.toLowerCase());
  if (!locale) throw errors.unsupportedLocale();
  await updateParticipantLocale(db, session.client_id, session.participant_id, locale.code);
  return getUserData(db, session, sessionId);
}

export async function getProgramNames(db: Db, session: Session): Promise<string[]> {
  return listProgramNames(db, session.client_id, session.participant_id);
}

/** Consent is the participant's own: an administrator acting as them cannot give it. */
export async function acknowledgePrivacyNotice(db: Db, session: Session) {
  if (session.admin_as_user === 1) throw errors.forbidden();
  const client = await findClient(db, session.client_id);
  if (!client) throw errors.unknownClient();
  await updatePrivacyAcknowledgement(db, session.client_id, session.participant_id, client.privacy_notice_version);
  return { privacyNotice: { hasAcknowledged: client.privacy_notice_version > 0, version: client.privacy_notice_version } };
}
