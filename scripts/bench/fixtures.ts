/**
 * The bench's data, on top of the demo program: a participant with exactly 200 entries (the
 * statement case), one with on-the-spot codes on whose balance the redeem load moves, and
 * thousands of distinct unused codes for that load. Written straight into the database before
 * the server starts (the demo seed itself runs through the operator CLI, as an operator would).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { appendLedgerEntries } from '../../apps/server/src/modules/ledger/bulk.ts';
import type { LedgerKind } from '../../apps/server/src/modules/ledger/store.ts';
import { OTS_ALPHABET } from '../../apps/server/src/modules/ots/code.ts';
import { insertOtsCodes, newOtsCodeRows } from '../../apps/server/src/modules/ots/store.ts';
import { withSearchKeys } from '../../apps/server/src/modules/participants/search-keys.ts';
import { CLI, ROOT } from './portal.ts';

export const CLIENT_ID = 'acme';
export const PASSWORD = 'Rewards-2026!';
export const STATEMENT_USER = 'bench200';
export const REDEEM_USER = 'benchots';
export const STATEMENT_ENTRIES = 200;
export const RACE_CODE = 'RACE-QQQQ-7777';
const CHUNK = 500;

/** Distinct valid codes of the ots alphabet: "QQ" and the index in base 25, dashed for reading. */
export function benchCode(index: number): string {
  let digits = '';
  let rest = index;
  for (let i = 0; i < 8; i++) {
    digits = OTS_ALPHABET[rest % OTS_ALPHABET.length]! + digits;
    rest = Math.floor(rest / OTS_ALPHABET.length);
  }
  return `QQ${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}`;
}

/** Migrates and seeds the demo program through the operator CLI. */
export async function seedDemo(databaseUrl: string): Promise<void> {
  await promisify(execFile)(process.execPath, [CLI, 'seed-demo'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

export function openDatabase(databaseUrl: string): Db {
  return createDatabase(databaseConfigFromUrl(databaseUrl));
}

/** Adds the bench participants and `codes` redeemable codes (plus the race's one). */
export async function addBenchData(databaseUrl: string, codes: number): Promise<void> {
  const db = openDatabase(databaseUrl);
  try {
    const demo = await db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', CLIENT_ID)
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const big = await db
      .selectFrom('participants')
      .select('id')
      .where('client_id', '=', CLIENT_ID)
      .where('username', '=', 'bigspender')
      .executeTakeFirstOrThrow();
    const now = new Date();
    // Bea's first 200 entries: real descriptions, and a history that never goes below zero.
    const source = await db
      .selectFrom('ledger_entries')
      .select(['occurred_at', 'description', 'description_key', 'description_params', 'amount', 'kind'])
      .where('client_id', '=', CLIENT_ID)
      .where('participant_id', '=', big.id)
      .orderBy('occurred_at')
      .limit(STATEMENT_ENTRIES)
      .execute();
    if (source.length !== STATEMENT_ENTRIES) throw new Error(`bigspender has ${source.length} entries, not ${STATEMENT_ENTRIES}+`);

    const statementId = randomUUID();
    const redeemId = randomUUID();
    const person = (id: string, username: string, account: string, balance: number | null) =>
      withSearchKeys({
        ...demo,
        id,
        username,
        username_key: username,
        email: `${username}@example.com`,
        account_number: account,
        balance,
        created_at: now.toISOString(),
      });
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('participants')
        .values([
          // Moved by the entries below, through the ledger (its lots too, docs/decisions/057).
          person(statementId, STATEMENT_USER, '2000001', null),
          person(redeemId, REDEEM_USER, '2000002', 0),
        ])
        .execute();
      await appendLedgerEntries(
        trx,
        CLIENT_ID,
        source.map((e) => ({
          clientId: CLIENT_ID,
          participantId: statementId,
          occurredAt: e.occurred_at,
          description: e.description,
          ...(e.description_key ? { descriptionKey: e.description_key } : {}),
          ...(e.description_params ? { descriptionParams: JSON.parse(e.description_params) as Record<string, string> } : {}),
          amount: e.amount,
          kind: e.kind as LedgerKind,
        })),
        now,
      );

      const all = [{ code: RACE_CODE, value: 100, batch: 'bench race' }];
      for (let i = 0; i < codes; i++) all.push({ code: benchCode(i), value: 10, batch: 'bench' });
      const rows = newOtsCodeRows(CLIENT_ID, all, now);
      for (let from = 0; from < rows.length; from += CHUNK) await insertOtsCodes(trx, rows.slice(from, from + CHUNK));
    });
  } finally {
    await db.destroy();
  }
}

/** Signs in through the API and returns the session id. */
export async function signIn(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1.0/login`, {
    method: 'POST',
    headers: apiHeaders(),
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login of ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

/** What Chromium (and every current browser) sends with a fetch: the portal answers it in brotli (decision 056). */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export function apiHeaders(sessionId?: string): Record<string, string> {
  return { 'content-type': 'application/json', 'client-id': 'http://localhost', ...(sessionId ? { 'x-session-id': sessionId } : {}) };
}

/** Ledger entries and balance of the race's code: it must have credited exactly once. */
export async function raceOutcome(databaseUrl: string): Promise<{ credits: number; balanceMatchesLedger: boolean }> {
  const db = openDatabase(databaseUrl);
  try {
    const participant = await db
      .selectFrom('participants')
      .select(['id', 'balance'])
      .where('client_id', '=', CLIENT_ID)
      .where('username', '=', REDEEM_USER)
      .executeTakeFirstOrThrow();
    const code = await db
      .selectFrom('ots_codes')
      .select('id')
      .where('client_id', '=', CLIENT_ID)
      .where('batch', '=', 'bench race')
      .executeTakeFirstOrThrow();
    const credits = await db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('client_id', '=', CLIENT_ID)
      .where('reference', '=', `ots:${code.id}`)
      .executeTakeFirstOrThrow();
    const sum = await db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
      .where('client_id', '=', CLIENT_ID)
      .where('participant_id', '=', participant.id)
      .executeTakeFirstOrThrow();
    return { credits: Number(credits.n), balanceMatchesLedger: Number(sum.total ?? 0) === Number(participant.balance ?? 0) };
  } finally {
    await db.destroy();
  }
}

/** On-the-spot credits in the redeem participant's ledger (after a crash: what survived). */
export async function redeemCredits(databaseUrl: string): Promise<number> {
  const db = openDatabase(databaseUrl);
  try {
    const row = await db
      .selectFrom('ledger_entries')
      .innerJoin('participants', 'participants.id', 'ledger_entries.participant_id')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('participants.client_id', '=', CLIENT_ID)
      .where('participants.username', '=', REDEEM_USER)
      .where('ledger_entries.kind', '=', 'ots')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.destroy();
  }
}
