import type { ParticipantSearchReply } from '@rewards/contract';
import type { StaffRole } from '@rewards/contract/console';
import type {
  ConsoleParticipant,
  ConsoleSearchQuery,
  ConsoleStatementPage,
  ConsoleStatementQuery,
} from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import type { Staff } from '../staff/tables.ts';
import type { Participant } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import { createDescriber } from '../activity/describe.ts';
import { participantAudit } from '../audit/trail.ts';
import { findClient, listMediaLabels } from '../clients/service.ts';
import { buildBundle } from '../i18n/service.ts';
import type { LimitPolicy } from '../limits/policy.ts';
import { participantLimitStanding } from '../limits/service.ts';
import { checkClientInScope, type StaffScope } from '../staff/scope.ts';
import { participantOrders } from '../catalog/service.ts';
import { participantContactRequests } from '../content/service.ts';
import { participantMails } from '../mail/listing.ts';
import { lastSignIn, openSessions } from '../sessions/service.ts';
import { consoleStatementRows, type ConsoleStatementCursor } from '../ledger/service.ts';
import { codesRedeemedBy } from '../ots/service.ts';
import { balanceAfter, PAGE_LIST_LIMIT } from './console-store.ts';
import { searchParticipants } from './search.ts';
import { findParticipant, listProgramNames } from './store.ts';

/**
 * The console's read side of a participant (issue 17, section 3; docs/decisions/047): search
 * over the clients the caller may see, the participant's page, and their statement with the
 * running balance. The routes' guard has checked the caller's role in the path's client.
 */

/** Audit entries on the participant's page; the audit trail pages the rest. */
export const PAGE_AUDIT_ENTRIES = 20;
export const STATEMENT_DEFAULT_LIMIT = 50;

/** Search (decision 045) scoped to the caller's clients; a client outside them is 403, not an empty page. */
export async function consoleSearch(db: Db, scope: StaffScope, query: ConsoleSearchQuery): Promise<ParticipantSearchReply> {
  if (query.clientId !== undefined) checkClientInScope(scope, query.clientId);
  const clientIds = query.clientId !== undefined ? [query.clientId] : scope.clientIds;
  return searchParticipants(db, { clientIds, query: query.q, page: { limit: query.limit, after: query.after } });
}

/** The participant of the path, only in the path's client: another client's, or nobody, is 404. */
async function participantOf(db: Db, clientId: string, participantId: string): Promise<Participant> {
  const participant = await findParticipant(db, clientId, participantId);
  if (!participant || participant.client_id !== clientId) throw errors.notFound();
  return participant;
}

/** What the caller may do here; the action routes check again. An auditor reads only. */
export function actionsFor(staff: Staff, role: StaffRole | null): ConsoleParticipant['can'] {
  const acts = staff.owner === 1 || role === 'program_manager' || role === 'support_agent';
  return { launchAs: acts, adjust: acts, changeStatus: acts, unlock: acts, endSessions: acts, resendMail: acts, correctDetails: acts };
}

/** The client's name for its points, from its media label in its default language. */
async function currencyName(db: Db, clientId: string, defaultLocale: string): Promise<string> {
  const labels = await listMediaLabels(db, clientId);
  const label = labels.find((l) => l.locale === defaultLocale) ?? labels[0];
  if (!label) return 'points';
  try {
    const forms = JSON.parse(label.forms) as { other?: unknown };
    return typeof forms.other === 'string' && forms.other !== '' ? forms.other : 'points';
  } catch {
    return 'points';
  }
}

export interface ParticipantPageContext {
  db: Db;
  limits: LimitPolicy;
  staff: Staff;
  role: StaffRole | null;
}

export async function consoleParticipant(
  ctx: ParticipantPageContext,
  clientId: string,
  participantId: string,
  now = new Date(),
): Promise<ConsoleParticipant> {
  const { db } = ctx;
  const [client, participant] = await Promise.all([findClient(db, clientId), participantOf(db, clientId, participantId)]);
  if (!client) throw errors.notFound();
  const nowIso = now.toISOString();
  const [currency, programs, codes, orders, signedIn, limits, sessions, mails, messages, audit] = await Promise.all([
    currencyName(db, clientId, client.default_locale),
    listProgramNames(db, clientId, participant.id),
    codesRedeemedBy(db, clientId, participant.id, PAGE_LIST_LIMIT),
    participantOrders(db, clientId, participant.id, PAGE_LIST_LIMIT),
    lastSignIn(db, clientId, participant.id),
    participantLimitStanding(db, ctx.limits, participant, now),
    openSessions(db, clientId, participant.id, nowIso, PAGE_LIST_LIMIT),
    participantMails(db, clientId, participant.id, PAGE_LIST_LIMIT),
    participantContactRequests(db, clientId, participant.id, PAGE_LIST_LIMIT),
    participantAudit(db, participant, PAGE_AUDIT_ENTRIES),
  ]);
  return {
    client: { id: client.id, name: client.name, currencyName: currency, portalUrl: client.portal_url },
    role: ctx.role,
    can: actionsFor(ctx.staff, ctx.role),
    identity: {
      id: participant.id,
      username: participant.username,
      firstName: participant.first_name,
      lastName: participant.last_name,
      email: participant.email,
      accountNumber: participant.account_number,
      dateOfBirth: participant.date_of_birth,
      status: participant.status,
      locale: participant.locale,
      createdAt: participant.created_at,
      programs,
      offerings: {
        merchandise: participant.offers_merchandise === 1,
        experiences: participant.offers_experiences === 1,
        ots: participant.ots_enabled === 1,
      },
      privacyAcknowledged: participant.privacy_ack_version,
      privacyCurrent: client.privacy_notice_version,
    },
    balance: Number(participant.balance ?? 0),
    codes: codes.map((c) => ({ hint: c.code_hint, value: Number(c.value), redeemedAt: c.redeemed_at ?? '', batch: c.batch })),
    orders: orders.map((o) => ({
      partner: o.partner_name ?? o.partner_id,
      orderId: o.order_id,
      points: Number(o.points),
      at: o.created_at,
    })),
    signIns: {
      lastSignInAt: signedIn ?? null,
      // A limit with no live window: it ends now (nothing is counted against it).
      limits: limits.map((l) => ({ name: l.name, taken: l.taken, max: l.max, windowEndsAt: l.until ?? nowIso, locked: l.taken >= l.max })),
    },
    sessions: sessions.map((s) => ({
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
      idleExpiresAt: s.idle_expires_at,
      launchedAs: s.admin_as_user === 1,
    })),
    mails: mails.map((m) => ({
      id: m.id,
      template: m.template,
      subject: m.subject,
      to: m.to_address,
      status: m.status,
      createdAt: m.created_at,
      sentAt: m.sent_at,
      note: m.delivery_note ?? m.last_error,
    })),
    contactMessages: messages.map((m) => ({ id: m.id, topic: m.topic, subject: m.subject, status: m.status, createdAt: m.created_at })),
    audit,
  };
}

function decodeCursor(text: string): ConsoleStatementCursor {
  const [occurred_at, created_at, id] = decodePageCursor(text, ['string', 'string', 'string']);
  return { occurred_at, created_at, id };
}

/**
 * The statement newest first, a page at a time (keyset on the statement index), each entry with
 * the balance just after it: the first entry's from the balance minus everything newer (one
 * statement), the next ones by taking each entry back out. Descriptions as the participant reads
 * them, in the client's default language.
 */
export async function consoleStatement(
  db: Db,
  clientId: string,
  participantId: string,
  query: ConsoleStatementQuery,
): Promise<ConsoleStatementPage> {
  const limit = query.limit ?? STATEMENT_DEFAULT_LIMIT;
  const after = query.after === undefined || query.after === '' ? undefined : decodeCursor(query.after);
  const [client, participant] = await Promise.all([findClient(db, clientId), participantOf(db, clientId, participantId)]);
  if (!client) throw errors.notFound();
  const rows = await consoleStatementRows(db, clientId, participant.id, after, limit);
  const page = rows.slice(0, limit);
  const first = page[0];
  if (!first) return { entries: [], next: null };
  const [start, bundle] = await Promise.all([
    balanceAfter(db, clientId, participant.id, first),
    buildBundle(db, clientId, client.default_locale),
  ]);
  // The participant was there a moment ago: gone now, their statement is too.
  if (start === undefined) throw errors.notFound();
  const describe = createDescriber(bundle.properties, client.default_locale);
  let running = start;
  const entries = page.map((row) => {
    const amount = Number(row.amount);
    const entry = {
      id: row.id,
      date: row.occurred_at,
      description: describe(row),
      amount,
      runningBalance: running,
      kind: row.kind,
      internalNote: row.internal_note,
      postedBy: row.posted_by,
    };
    running -= amount;
    return entry;
  });
  const last = page.at(-1);
  return { entries, next: rows.length > limit && last ? encodePageCursor([last.occurred_at, last.created_at, last.id]) : null };
}
