import type { StatementEntry, StatementQuery } from '@rewards/contract';
import { ErrorCode, StatementReply } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { GenerationCache } from '../../db/generation-cache.ts';
import type { Session } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { NegotiatedBody } from '../../http/negotiated-body.ts';
import { clientLocales } from '../clients/service.ts';
import { findClient } from '../clients/store.ts';
import { buildBundle } from '../i18n/service.ts';
import { findParticipant, usernameKey } from '../participants/store.ts';
import { createDescriber } from './describe.ts';
import { listStatementEntries } from './store.ts';

const notOwnStatement = () =>
  new ApiError(403, ErrorCode.statementNotOwn, 'activity.error.notOwn', 'A statement can only be read by its own participant');

/**
 * The language of the descriptions: the one asked for if the client offers it, else the
 * participant's own (if still offered), else the client's default. A statement always reads.
 */
export function pickStatementLocale(offered: readonly string[], asked: string, participantLocale: string, clientDefault: string): string {
  const find = (code: string) => offered.find((o) => o.toLowerCase() === code.toLowerCase());
  return find(asked) ?? find(participantLocale) ?? find(clientDefault) ?? offered[0] ?? clientDefault;
}

/** Stored times are ISO-8601 UTC; the reply says so explicitly, whatever a row holds. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function withOffset(occurredAt: string): string {
  // What the portal writes is already in the reply's form; parsing 10,000 dates again is not free.
  if (ISO_UTC.test(occurredAt)) return occurredAt;
  const time = Date.parse(occurredAt);
  return Number.isNaN(time) ? occurredAt : new Date(time).toISOString();
}

/** A statement ready to send: its JSON bytes (and their brotli or gzip form), and whose it is (the username check of every request). */
interface ReadyStatement {
  usernameKey: string;
  body: NegotiatedBody;
}

/**
 * Compressed once per cached statement (decision 032): brotli at quality 3 costs ~0.1 ms for 200
 * entries (20 kB → 2.4 kB), against ~1 ms to build it; quality 11 would cost 24 ms. A statement
 * above the cache's per-entry bound (thousands of entries, built on every request) is sent as it is:
 * compressing a megabyte on every request was not measured to pay.
 */
const STATEMENT_CODING = { brotliQuality: 3, gzipLevel: 6 };
const LARGEST_CODED = 512 * 1024;

/** Under vitest a statement is also checked against the contract (the bytes skip the reply serializer). */
const checkedByZod = process.env.VITEST !== undefined;

/**
 * Statements as sent, per participant and asked locale, kept until anything is committed
 * (docs/decisions/027): reading, describing and serialising 200 entries costs ~20 times a
 * bare request, and a history changes only by a commit (an award, a redemption, an import),
 * from whichever process. At most a second old besides: descriptions come from bundles in the
 * time-limited configuration cache. Bounded in bytes (2 MB, about a hundred 200-entry
 * statements of ~20 kB; one above 512 kB, thousands of entries, is rebuilt each time).
 */
const readyStatements = new GenerationCache<ReadyStatement>({
  maxEntries: 1_000,
  maxBytes: 2 * 1024 * 1024,
  sizeOf: (ready) => ready.body.identity.body.byteLength + 200,
  maxAgeMs: 1_000,
});

/**
 * GET user/account/statement: the signed-in participant's own ledger, oldest first, each
 * description in the asked language, as JSON bytes. Someone else's username is refused
 * whatever the caller is; an administrator acting as the participant may read it (it changes
 * nothing).
 */
export async function getStatementBody(db: Db, session: Session, query: StatementQuery): Promise<NegotiatedBody> {
  const key = `${session.client_id}\u0000${session.participant_id}\u0000${query.locale}`;
  const ready = await readyStatements.get(db, key, async () => {
    const { usernameKey: owner, reply } = await buildStatement(db, session, query.locale);
    const json = JSON.stringify(checkedByZod ? StatementReply.parse(reply) : reply);
    const body = Buffer.from(json);
    return { usernameKey: owner, body: new NegotiatedBody(body, undefined, [], body.byteLength > LARGEST_CODED ? { identityOnly: true } : STATEMENT_CODING) };
  });
  if (!ready) throw errors.sessionRequired();
  if (usernameKey(query.username) !== ready.usernameKey) throw notOwnStatement();
  return ready.body;
}

/** The statement as objects (the entries hold exactly the contract's three properties). */
async function buildStatement(db: Db, session: Session, askedLocale: string): Promise<{ usernameKey: string; reply: StatementReply }> {
  const [participant, client, locales] = await Promise.all([
    findParticipant(db, session.client_id, session.participant_id),
    findClient(db, session.client_id),
    clientLocales(db, session.client_id),
  ]);
  if (!participant) throw errors.sessionRequired();
  if (!client) throw errors.unknownClient();
  const locale = pickStatementLocale(locales.map((l) => l.code), askedLocale, participant.locale, client.default_locale);
  const [bundle, rows] = await Promise.all([
    buildBundle(db, session.client_id, locale),
    listStatementEntries(db, session.client_id, session.participant_id),
  ]);
  const describe = createDescriber(bundle.properties, locale);
  const accountHistoryList: StatementEntry[] = rows.map((row) => ({
    date: withOffset(row.occurred_at),
    description: describe(row),
    amountOrAward: Number(row.amount),
  }));
  return { usernameKey: participant.username_key, reply: { accountNumber: participant.account_number, accountHistoryList } };
}
