import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { UserData } from '@rewards/contract';
import { LAUNCH_AS_PAGE } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Participant } from '../participants/tables.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { buildUserData, findParticipant } from '../participants/service.ts';
import { startSession, type SessionPolicy } from '../sessions/service.ts';
import { launchErrors } from './errors.ts';
import { newLaunchToken, sha256 } from './secrets.ts';
import { clientHostnames } from '../clients/service.ts';
import { claimLaunchToken, findLaunchBySession, findLaunchToken, insertLaunchToken, setLaunchSession } from './store.ts';

/** Issue 9: a launch link works for 2 minutes, once; the session it opens lasts at most 30 minutes. */
export const LAUNCH_TOKEN_MINUTES = 2;
export const LAUNCH_SESSION_MAX_MINUTES = 30;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/;

/**
 * The origin a client's participants open: `baseUrl` when given (its host must be one of the
 * client's), else the client's first public host over https, else (a local set-up with only
 * loopback hosts, like the demo) http://localhost on the server's port.
 */
export async function clientOrigin(db: Kysely<Database>, clientId: string, options: { baseUrl?: string; port: number }): Promise<string> {
  const hosts = await clientHostnames(db, clientId);
  if (options.baseUrl) {
    const url = new URL(options.baseUrl);
    if (!hosts.includes(url.hostname.toLowerCase())) throw new Error(`not a host of client ${clientId}: ${url.hostname}`);
    return url.origin;
  }
  const publicHost = hosts.find((h) => !LOOPBACK.test(h));
  if (publicHost) return `https://${publicHost}`;
  const local = hosts.includes('localhost') ? 'localhost' : hosts[0];
  if (!local) throw new Error(`client ${clientId} has no host`);
  return `http://${local}:${options.port}`;
}

export interface IssueRequest {
  participant: Participant;
  reason: string;
  issuedBy: string;
  issuedVia: 'cli' | 'api' | 'console';
  actorKind: AuditActorKind;
  issuedFrom: string;
  origin: string;
  /** More to record, e.g. the operator who ran the command for the administrator. */
  details?: Record<string, unknown>;
}

export interface IssuedToken {
  url: string;
  token: string;
  expiresAt: string;
}

/** Stores a new token's hash and records who asked, for whom, why and from where, in the caller's transaction. */
export async function issueLaunchToken(trx: Kysely<Database>, request: IssueRequest, now = new Date()): Promise<IssuedToken> {
  const token = newLaunchToken();
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + LAUNCH_TOKEN_MINUTES * 60_000).toISOString();
  const { participant } = request;
  await insertLaunchToken(trx, {
    id,
    token_hash: sha256(token),
    client_id: participant.client_id,
    participant_id: participant.id,
    reason: request.reason,
    issued_by: request.issuedBy,
    issued_via: request.issuedVia,
    issued_from: request.issuedFrom,
    issued_at: now.toISOString(),
    expires_at: expiresAt,
    used_at: null,
    used_from: null,
    session_hash: null,
  });
  await recordAudit(
    trx,
    {
      clientId: participant.client_id,
      actor: request.issuedBy,
      actorKind: request.actorKind,
      action: 'launch-as.issue',
      subject: participant.username,
      details: { reason: request.reason, via: request.issuedVia, token: id, expiresAt, ...request.details },
      origin: request.issuedFrom,
    },
    now,
  );
  const url = `${request.origin}${LAUNCH_AS_PAGE}?token=${token}`;
  return { url, token, expiresAt };
}

/**
 * Launch-as from the staff console (docs/decisions/048): the same single-use token, issued by
 * the staff member (their e-mail), from their address, for a link on the client's configured
 * portal address (clients.portal_url), as the participant's mails use.
 */
export async function issueFromConsole(
  db: Db,
  staff: { email: string; address: string },
  portalUrl: string,
  participant: Participant,
  reason: string,
  now = new Date(),
): Promise<IssuedToken> {
  const origin = new URL(portalUrl).origin;
  return db.transaction().execute((trx) =>
    issueLaunchToken(
      trx,
      {
        participant,
        reason,
        issuedBy: staff.email,
        issuedVia: 'console',
        actorKind: 'staff',
        issuedFrom: staff.address,
        origin,
        details: { participantId: participant.id },
      },
      now,
    ),
  );
}

/**
 * POST launchAs: the token becomes a session marked admin-as-user, capped at 30 minutes. Unknown
 * (or another client's), expired and used tokens are refused and open nothing; the claim is a
 * conditional update, so of concurrent posts of one token only one opens a session.
 */
export async function launchAs(
  db: Db,
  policy: SessionPolicy,
  clientId: string,
  token: string,
  from: string,
  now = new Date(),
): Promise<UserData> {
  const nowIso = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await findLaunchToken(trx, clientId, sha256(token));
    if (!row) throw launchErrors.tokenInvalid();
    if (row.used_at !== null) throw launchErrors.tokenUsed();
    if (row.expires_at <= nowIso) throw launchErrors.tokenExpired();
    if (!(await claimLaunchToken(trx, clientId, row.id, nowIso, from))) throw launchErrors.tokenUsed();
    const participant = await findParticipant(trx, clientId, row.participant_id);
    if (!participant) throw launchErrors.tokenInvalid();
    const capped: SessionPolicy = {
      idleMinutes: Math.min(policy.idleMinutes, LAUNCH_SESSION_MAX_MINUTES),
      maxHours: Math.min(policy.maxHours, LAUNCH_SESSION_MAX_MINUTES / 60),
    };
    const { sessionId, session } = await startSession(trx, capped, clientId, participant.id, true, now);
    await setLaunchSession(trx, row.id, session.id_hash);
    await recordAudit(
      trx,
      {
        clientId,
        actor: row.issued_by,
        actorKind: 'participant-session',
        action: 'launch-as.use',
        subject: participant.username,
        details: { token: row.id, reason: row.reason, sessionExpiresAt: session.absolute_expires_at },
        origin: from,
      },
      now,
    );
    return buildUserData(trx, participant, session, sessionId);
  });
}

/**
 * Who opened a launched session and as whom (the participant's username): for the audit of what
 * that session opens. Undefined for a session without a launch, or whose participant is gone.
 */
export async function launchBySession(db: Db, clientId: string, sessionHash: string) {
  const launch = await findLaunchBySession(db, clientId, sessionHash);
  if (!launch) return undefined;
  const participant = await findParticipant(db, clientId, launch.participantId);
  return participant ? { tokenId: launch.tokenId, issuedBy: launch.issuedBy, username: participant.username } : undefined;
}
