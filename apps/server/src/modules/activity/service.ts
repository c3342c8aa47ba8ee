import type { StatementEntry, StatementQuery, StatementReply } from '@rewards/contract';
import { ErrorCode } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
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

/**
 * GET user/account/statement: the signed-in participant's own ledger, oldest first, each
 * description in the asked language. Someone else's username is refused whatever the caller
 * is; an administrator acting as the participant may read it (it changes nothing).
 */
export async function getStatement(db: Db, session: Session, query: StatementQuery): Promise<StatementReply> {
  const [participant, client, locales] = await Promise.all([
    findParticipant(db, session.client_id, session.participant_id),
    findClient(db, session.client_id),
    clientLocales(db, session.client_id),
  ]);
  if (!participant) throw errors.sessionRequired();
  if (!client) throw errors.unknownClient();
  if (usernameKey(query.username) !== participant.username_key) throw notOwnStatement();

  const locale = pickStatementLocale(locales.map((l) => l.code), query.locale, participant.locale, client.default_locale);
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
  return { accountNumber: participant.account_number, accountHistoryList };
}
