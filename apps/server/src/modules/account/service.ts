import {
  PasswordRules,
  checkPasswordRules,
  type AcceptedReply,
  type ActivateRequest,
  type ForgotPasswordRequest,
  type ForgotUsernameRequest,
  type SavePasswordReply,
  type SavePasswordRequest,
  type UserData,
} from '@rewards/contract';
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Participant } from '../participants/tables.ts';
import { errors, type ApiError } from '../../http/api-error.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { findClient } from '../clients/service.ts';
import { queueMail, queueNoMail, type OutgoingMail } from '../mail/outbox.ts';
import { searchKeyColumns } from '../participants/search-keys.ts';
import {
  activateParticipant,
  buildUserData,
  findParticipant,
  findParticipantByUniqueKey,
  findParticipantByUsernameAndEmail,
  findParticipantsByEmail,
  setPasswordHash,
  usernameKey,
  usernameTakenByOther,
} from '../participants/service.ts';
import { emailChangeHoldUntil } from '../participants/operator-service.ts';
import { profileErrors } from '../profile/service.ts';
import { deleteParticipantSessions, startSession, type SessionPolicy } from '../sessions/service.ts';
import { characteristicsMatch, locatorOf } from './characteristics.ts';
import { accountErrors } from './errors.ts';
import { hashResetToken, newResetToken, resetLink } from './reset-token.ts';
import { deleteResetsExpiredBefore, findReset, insertResetFor, markResetUsed, voidOpenResets } from './store.ts';
import { limitsOf, participantLimits, subjects, type LimitPolicy } from '../limits/policy.ts';
import { clearLimits, succeeded, takeSlots } from '../limits/service.ts';
import { tellWebhooks } from '../webhooks/service.ts';

export interface AccountContext {
  db: Db;
  sessionPolicy: SessionPolicy;
  limits: LimitPolicy;
  resetLinkMinutes: number;
}

/** Who is asking: the client the origin resolved to, its portal address, and the caller's address. */
export interface Caller {
  clientId: string;
  /** The client's configured portal origin (clients.portal_url): links in mails start there, never at the request's origin. */
  portalUrl: string;
  address: string;
}

/** A caller of the forgot endpoints: also the client's default locale, the one a miss's stand-in mail is rendered in. */
export interface RecoveryCaller extends Caller {
  defaultLocale: string;
}

const MINUTE = 60_000;
/**
 * The usernames a miss's stand-in forgotUsername mail names: the worker renders it like a mail
 * and drops it (decision 042). About as long as one username.
 */
const STAND_IN_USERNAMES = 'participant';
/** The portal's activation page (apps/web routing/paths.ts). */
const ACTIVATION_PAGE = '/activation';
const WEEK = 7 * 24 * 60 * MINUTE;

async function clientOf(db: Db, clientId: string) {
  const client = await findClient(db, clientId);
  if (!client) throw errors.unknownClient();
  return client;
}

/** Passwords the client's rules panel would refuse are refused here too (the same function). */
function enforceRules(rulesJson: string, password: string, username: string): void {
  const rules = PasswordRules.parse(JSON.parse(rulesJson));
  if (!checkPasswordRules(rules, password, username).every((r) => r.met)) throw profileErrors.rulesNotMet();
}

/**
 * POST activate. The client's activation fields say which facts prove who the participant is;
 * a wrong or unknown fact fails with one generic error, compared in constant time, and counts
 * toward per-address and per-account limits. Only after the facts match are the account's
 * state (already active), the chosen username and the password rules checked. The password,
 * username, privacy acknowledgement and status change in one transaction with the "activated"
 * mail; the reply is a new session, like sign-in.
 */
export async function activate(ctx: AccountContext, caller: Caller, request: ActivateRequest): Promise<UserData> {
  const client = await clientOf(ctx.db, caller.clientId);
  const fields = (JSON.parse(client.activation_fields) as unknown[]).filter((f): f is string => typeof f === 'string');
  const given = Object.keys(request.characteristics);
  const missing = fields.filter((field) => !given.includes(field));
  const unknown = given.filter((field) => !fields.includes(field));
  if (missing.length > 0 || unknown.length > 0) {
    throw errors.validation(`characteristics must be exactly: ${fields.join(', ')}`);
  }
  const privacyVersion = client.privacy_notice_version;
  if (privacyVersion > 0 && (request.acceptedPrivacyNoticeVersion ?? 0) < privacyVersion) throw accountErrors.privacyNoticeNotAccepted();

  const locator = locatorOf(fields, request.characteristics);
  // Slots before the facts are compared: a burst of guesses gets at most the limit checked.
  const limits = limitsOf(ctx.limits);
  const slots = await takeSlots(ctx.db, caller.clientId, limits.activation(locator, caller.address), accountErrors.throttled);
  const participant = locator
    ? await findParticipantByUniqueKey(
        ctx.db,
        caller.clientId,
        locator.field === 'accountNumber' ? 'account_number' : 'username_key',
        locator.value,
      )
    : undefined;
  if (!characteristicsMatch(fields, request.characteristics, participant) || !participant) throw accountErrors.activationFailed();
  await succeeded(ctx.db, slots, locator ? [subjects.activation(locator.field, locator.value)] : []);
  if (participant.status !== 'pending') throw accountErrors.alreadyActive();

  const username = request.username ?? participant.username;
  const key = usernameKey(username);
  if (key !== participant.username_key && (await usernameTakenByOther(ctx.db, caller.clientId, key, participant.id))) {
    throw accountErrors.usernameTaken();
  }
  enforceRules(client.password_rules, request.password, username);

  const passwordHash = await hashPassword(request.password);
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const activated = await activateParticipant(trx, caller.clientId, participant.id, {
        passwordHash,
        username,
        usernameKey: key,
        searchKeys: searchKeyColumns({ ...participant, username }),
        privacyAckVersion: Math.max(participant.privacy_ack_version, privacyVersion),
      });
      if (!activated) throw accountErrors.alreadyActive();
      await queueMail(trx, {
        clientId: caller.clientId,
        participantId: participant.id,
        to: participant.email,
        locale: participant.locale,
        template: 'activated',
        params: {},
      });
      // Told to the client's webhooks with the activation (decision 084).
      await tellWebhooks(trx, {
        clientId: caller.clientId,
        kind: 'participant.activated',
        username,
        data: { status: 'active', ...(username !== participant.username ? { previousUsername: participant.username } : {}) },
      });
    })
    .catch(async (error: unknown) => {
      // Someone took the username between the check and the update: the unique key refused it.
      if (key !== participant.username_key && (await usernameTakenByOther(ctx.db, caller.clientId, key, participant.id))) {
        throw accountErrors.usernameTaken();
      }
      throw error;
    });

  const active = await findParticipant(ctx.db, caller.clientId, participant.id);
  if (!active) throw accountErrors.activationFailed();
  const { sessionId, session } = await startSession(ctx.db, ctx.sessionPolicy, caller.clientId, active.id, false);
  return buildUserData(ctx.db, active, session, sessionId);
}

/**
 * A forgot endpoint's mail, or on a miss its stand-in: the same checks and insert in the
 * request's transaction, and the same rendering by the worker after the reply, which then drops
 * the stand-in unsent (decisions 018, 042).
 */
async function queueMailOrStandIn(trx: Transaction<Database>, mail: OutgoingMail, matched: boolean): Promise<void> {
  await (matched ? queueMail(trx, mail) : queueNoMail(trx, mail));
}

/**
 * POST forgotUsername. The same reply and the same database work whether or not the address is
 * known: every request is counted, the lookup always runs, and one outbox row is written either
 * way (a miss's is a stand-in the worker renders and drops: decision 042). The mail names
 * every username of the address that can sign in (pending accounts activate instead).
 */
export async function forgotUsername(ctx: AccountContext, caller: RecoveryCaller, request: ForgotUsernameRequest): Promise<AcceptedReply> {
  const email = request.emailAddress.toLowerCase();
  // Every request counts (the reply never tells whether anything matched), taken before the work.
  await takeSlots(ctx.db, caller.clientId, limitsOf(ctx.limits).forgotUsername(email, caller.address), accountErrors.throttled);
  await ctx.db.transaction().execute(async (trx) => {
    const found = (await findParticipantsByEmail(trx, caller.clientId, email)).filter((p) => p.status !== 'pending');
    const first = found[0];
    const mail: OutgoingMail = {
      clientId: caller.clientId,
      ...(first && found.length === 1 ? { participantId: first.id } : {}),
      to: first?.email ?? '',
      locale: first?.locale ?? caller.defaultLocale,
      template: 'forgotUsername',
      params: { usernames: first ? found.map((p) => p.username).join(', ') : STAND_IN_USERNAMES },
    };
    await queueMailOrStandIn(trx, mail, first !== undefined);
  });
  return { result: 'accepted' };
}

/**
 * POST forgotPassword. The same reply and statements whether or not the username and address
 * belong together: a token is always generated, and the "void older links" update and the insert
 * of the link's hash always run (against a random id on a miss, which writes no row); a match
 * queues the link, a miss its stand-in, which the worker renders and drops (decisions 018, 042).
 * Pending accounts get nothing: they activate instead.
 */
export async function forgotPassword(
  ctx: AccountContext,
  caller: RecoveryCaller,
  request: ForgotPasswordRequest,
  now = new Date(),
): Promise<AcceptedReply> {
  const key = usernameKey(request.userName);
  await takeSlots(
    ctx.db,
    caller.clientId,
    limitsOf(ctx.limits).forgotPassword(key, request.emailAddress.toLowerCase(), caller.address),
    accountErrors.throttled,
    now,
  );
  const token = newResetToken();
  const nowIso = now.toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const found = await findParticipantByUsernameAndEmail(trx, caller.clientId, key, request.emailAddress);
    // An address staff changed within 24 hours gets no link from here: it is answered as a miss (decision 076).
    const participant = found && found.status !== 'pending' && !emailChangeHoldUntil(found, now) ? found : undefined;
    // On a miss nobody, under a random id: the same statements run and find no row.
    const mailed = participant ?? { id: randomUUID(), email: '', locale: caller.defaultLocale };
    await voidOpenResets(trx, caller.clientId, mailed.id, nowIso);
    await deleteResetsExpiredBefore(trx, new Date(now.getTime() - WEEK).toISOString());
    await queueResetLink(trx, ctx, caller, mailed, token, now, { matched: participant !== undefined });
  });
  return { result: 'accepted' };
}

type MailedParticipant = Pick<Participant, 'id' | 'email' | 'locale'>;

/**
 * A new reset link's hash and its mail (older links were voided by the caller). `matched: false`
 * (forgotPassword's miss, with a random id): the hash's insert writes nothing and the mail is a
 * stand-in.
 */
async function queueResetLink(
  trx: Transaction<Database>,
  ctx: AccountContext,
  caller: Caller,
  participant: MailedParticipant,
  token: string,
  now: Date,
  { matched }: { matched: boolean } = { matched: true },
): Promise<void> {
  await insertResetFor(
    trx,
    {
      token_hash: hashResetToken(token),
      client_id: caller.clientId,
      participant_id: participant.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ctx.resetLinkMinutes * MINUTE).toISOString(),
    },
    matched,
  );
  const mail: OutgoingMail = {
    clientId: caller.clientId,
    participantId: participant.id,
    to: participant.email,
    locale: participant.locale,
    template: 'resetPassword',
    params: { link: resetLink(caller.portalUrl, token), minutes: String(ctx.resetLinkMinutes) },
  };
  await queueMailOrStandIn(trx, mail, matched);
}

/**
 * A reset mail sent for a participant that staff name (the console's "resend"), not one who
 * asked: the same link and mail as forgotPassword, under the same limit of the account (so
 * neither side can flood the mailbox), older links voided. `inside` runs in the mail's
 * transaction (the caller's audit entry). Pending accounts activate instead.
 */
export async function resendResetMail<T>(
  ctx: AccountContext,
  caller: Caller,
  participant: Participant,
  inside: (trx: Transaction<Database>) => Promise<T>,
  refused: () => ApiError,
  now = new Date(),
): Promise<T> {
  await takeSlots(
    ctx.db,
    caller.clientId,
    limitsOf(ctx.limits).forgotPassword(participant.username_key, participant.email.toLowerCase(), caller.address),
    refused,
    now,
  );
  return ctx.db.transaction().execute(async (trx) => {
    await voidOpenResets(trx, caller.clientId, participant.id, now.toISOString());
    await queueResetLink(trx, ctx, caller, participant, newResetToken(), now);
    return inside(trx);
  });
}

/**
 * The invitation to activate, for a pending participant (the console's "resend"): a link to
 * the portal's activation page, where the participant proves who they are as always. Limited
 * per account like the reset mails.
 */
export async function resendActivationMail<T>(
  ctx: AccountContext,
  caller: Caller,
  participant: Participant,
  inside: (trx: Transaction<Database>) => Promise<T>,
  refused: () => ApiError,
  now = new Date(),
): Promise<T> {
  await takeSlots(ctx.db, caller.clientId, limitsOf(ctx.limits).activationMail(participant.id), refused, now);
  return ctx.db.transaction().execute(async (trx) => {
    await queueMail(trx, {
      clientId: caller.clientId,
      participantId: participant.id,
      to: participant.email,
      locale: participant.locale,
      template: 'activationInvite',
      params: { link: `${caller.portalUrl}${ACTIVATION_PAGE}` },
    });
    return inside(trx);
  });
}

/**
 * POST savePassword. An unknown, used, replaced or expired link each get their own error (the
 * page offers a new link) and count toward the per-address limit, and a known link's refusals
 * toward its account's limit. The new password must meet the rules and differ
 * from the current one. Setting it uses up the link, ends every session of the participant,
 * clears their failed sign-ins and queues the "password changed" mail, in one transaction.
 */
export async function savePassword(
  ctx: AccountContext,
  caller: Caller,
  request: SavePasswordRequest,
  now = new Date(),
): Promise<SavePasswordReply> {
  const tokenHash = hashResetToken(request.passwordGuid);
  const reset = await findReset(ctx.db, caller.clientId, tokenHash);
  // A link names its account: refusals of that account's links count toward its own limit too.
  const slots = await takeSlots(
    ctx.db,
    caller.clientId,
    limitsOf(ctx.limits).resetLink(reset?.participant_id, caller.address),
    accountErrors.throttled,
    now,
  );
  const nowIso = now.toISOString();
  const refusal = !reset
    ? accountErrors.resetLinkInvalid()
    : reset.used_at !== null
      ? accountErrors.resetLinkUsed()
      : reset.voided_at !== null
        ? accountErrors.resetLinkReplaced()
        : reset.expires_at <= nowIso
          ? accountErrors.resetLinkExpired()
          : undefined;
  if (refusal || !reset) throw refusal ?? accountErrors.resetLinkInvalid();
  // A working link: it proves the mailbox, so it counts against nothing.
  await succeeded(ctx.db, slots);
  const [client, participant] = await Promise.all([
    clientOf(ctx.db, caller.clientId),
    findParticipant(ctx.db, caller.clientId, reset.participant_id),
  ]);
  if (!participant) throw accountErrors.resetLinkInvalid();
  enforceRules(client.password_rules, request.password, participant.username);
  if (await verifyPassword(participant.password_hash, request.password)) throw profileErrors.samePassword();

  const passwordHash = await hashPassword(request.password);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await markResetUsed(trx, caller.clientId, tokenHash, nowIso))) throw accountErrors.resetLinkUsed();
    await setPasswordHash(trx, caller.clientId, participant.id, passwordHash);
    await deleteParticipantSessions(trx, caller.clientId, participant.id);
    // Whoever was locked out by wrong passwords (their own, or someone else's, decision 040)
    // now knows the right one: the sign-in limits of the day go too.
    await clearLimits(
      trx,
      caller.clientId,
      participantLimits(ctx.limits, participant).signIn.map((limit) => limit.subject),
    );
    await queueMail(trx, {
      clientId: caller.clientId,
      participantId: participant.id,
      to: participant.email,
      locale: participant.locale,
      template: 'passwordChanged',
      params: {},
    });
  });
  return { result: 'saved' };
}
