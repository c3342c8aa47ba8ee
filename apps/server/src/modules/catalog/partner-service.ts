import { createHash, timingSafeEqual } from 'node:crypto';
import { CatalogType, type PartnerDebitReply, type PartnerDebitRequest, type PunchoutReply } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { appendLedgerEntryWithBalance, InsufficientBalanceError, writeToLedger } from '../ledger/service.ts';
import { participantBalance } from '../participants/service.ts';
import { findSession } from '../sessions/service.ts';
import { catalogErrors } from './errors.ts';
import { claimPunchout, findOrder, findPartner, findPunchout, insertOrder, setOrderReply } from './store.ts';
import { tellWebhooks } from '../webhooks/service.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Compared even for an unknown partner, so the answer's timing does not tell which ids exist. */
const NO_SUCH_SECRET = sha256('no such partner');

/** HTTP Basic `partnerId:secret`, checked against the partner of this client. */
export async function authenticatePartner(db: Db, clientId: string, authorization: string | undefined): Promise<string> {
  const match = /^Basic ([A-Za-z0-9+/=]{1,800})$/i.exec(authorization ?? '');
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const partnerId = colon > 0 ? decoded.slice(0, colon) : '';
  const secret = colon > 0 ? decoded.slice(colon + 1) : '';
  const partner = partnerId && partnerId.length <= 100 ? await findPartner(db, clientId, partnerId) : undefined;
  const expected = partner ? Buffer.from(partner.secret_hash, 'hex') : NO_SUCH_SECRET;
  const same = expected.length === 32 && timingSafeEqual(sha256(secret), expected);
  // A revoked partner's hash is empty already; its date says so as well.
  if (!partner || partner.revoked_at !== null || !same || secret.length === 0) throw catalogErrors.partnerUnauthorized();
  return partner.id;
}

/** Hex SHA-256 of a partner secret, as catalog_partners keeps it. */
export function partnerSecretHash(secret: string): string {
  return sha256(secret).toString('hex');
}

/** What makes two requests under one order id the same order. */
function requestHash(body: PartnerDebitRequest): string {
  const { participantId, points, description, items } = body;
  return sha256(JSON.stringify({ participantId, points, description, items: items ?? [] })).toString('hex');
}

async function repeatOf(db: Db, clientId: string, partnerId: string, body: PartnerDebitRequest): Promise<PartnerDebitReply | undefined> {
  const order = await findOrder(db, clientId, partnerId, body.orderId);
  if (!order) return undefined;
  if (order.request_hash !== requestHash(body)) throw catalogErrors.orderConflict();
  return JSON.parse(order.reply) as PartnerDebitReply;
}

/**
 * POST partner debits: the order, its ledger entry and the balance move in one transaction.
 * The order row goes in first: a concurrent twin waits on its key and then finds it, so the
 * same order debits once however often and however simultaneously it is sent.
 */
export async function debitForOrder(
  db: Db,
  clientId: string,
  partnerId: string,
  body: PartnerDebitRequest,
  now = new Date(),
): Promise<PartnerDebitReply> {
  const earlier = await repeatOf(db, clientId, partnerId, body);
  if (earlier) return earlier;
  try {
    return await writeToLedger(db, async (trx) => {
      const participant = await participantBalance(trx, clientId, body.participantId);
      if (!participant) throw catalogErrors.participantNotFound();
      const at = now.toISOString();
      await insertOrder(trx, {
        client_id: clientId,
        partner_id: partnerId,
        order_id: body.orderId,
        participant_id: participant.id,
        points: body.points,
        request_hash: requestHash(body),
        reply: '{}',
        created_at: at,
      });
      // The ledger answers the balance after the debit (decision 093: no read-back).
      const { entryId: debitId, balance } = await appendLedgerEntryWithBalance(
        trx,
        {
          clientId,
          participantId: participant.id,
          occurredAt: at,
          description: `${body.description} (order ${body.orderId})`,
          descriptionKey: 'ledger.catalog.order',
          descriptionParams: { description: body.description, orderId: body.orderId },
          amount: -body.points,
          kind: 'redemption',
          reference: `catalog:${partnerId}:${body.orderId}`,
        },
        now,
        { requireCovered: true },
      );
      const reply: PartnerDebitReply = { orderId: body.orderId, debitId, points: body.points, accountBalance: balance };
      await setOrderReply(trx, clientId, partnerId, body.orderId, JSON.stringify(reply));
      // Told to the client's webhooks with the debit (decision 084).
      await tellWebhooks(
        trx,
        {
          clientId,
          kind: 'order.placed',
          username: participant.username,
          data: {
            points: -body.points,
            balanceAfter: reply.accountBalance,
            entryId: debitId,
            orderId: body.orderId,
            partnerId,
            description: body.description,
            occurredAt: at,
          },
        },
        now,
      );
      return reply;
    });
  } catch (error) {
    // A twin that committed first (unique key) answers for this one too.
    const twin = await repeatOf(db, clientId, partnerId, body);
    if (twin) return twin;
    if (error instanceof InsufficientBalanceError) throw catalogErrors.insufficientBalance();
    throw error;
  }
}

/**
 * POST partner punchouts/{jti}: the catalog opening a punch-out link redeems it, once
 * (docs/decisions/043). Refused: a jti this partner was not given (404, also another partner's
 * or another client's), a link used before (409), one past its expiry, or one whose portal
 * session has ended — signed out, expired, ended by an operator (410). Only the one redemption
 * that flips redeemed_at wins; a simultaneous twin is told "used".
 */
export async function redeemPunchout(db: Db, clientId: string, partnerId: string, jti: string, now = new Date()): Promise<PunchoutReply> {
  const punchout = await findPunchout(db, clientId, jti);
  if (!punchout || punchout.partner_id !== partnerId) throw catalogErrors.punchoutNotFound();
  if (punchout.redeemed_at !== null) throw catalogErrors.punchoutUsed();
  const nowIso = now.toISOString();
  if (!(punchout.expires_at > nowIso)) throw catalogErrors.punchoutExpired();
  const session = await findSession(db, clientId, punchout.session_hash);
  // The same expiry rules as the session guard; a deleted row is a signed-out session.
  if (!session || !(session.idle_expires_at > nowIso && session.absolute_expires_at > nowIso)) throw catalogErrors.punchoutSessionEnded();
  if (!(await claimPunchout(db, clientId, jti, nowIso))) throw catalogErrors.punchoutUsed();
  return { punchoutId: jti, participantId: punchout.participant_id, offering: CatalogType.parse(punchout.offering), redeemedAt: nowIso };
}
