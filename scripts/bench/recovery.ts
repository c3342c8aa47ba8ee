/**
 * Whether the reply time of forgot-password and forgot-user-id tells a match (issue 16,
 * decision 042): each endpoint timed for a known account and for an unknown one, sequential
 * requests on loopback, the median of each side and their ratio.
 *
 * The attempt limits (per account and per address) would refuse most of these requests, so each
 * matching request names a bench participant of its own (benchmailNN, added before the server
 * starts), each missing one a name of its own, and each request comes from an address of its own
 * (X-Forwarded-For, the portal started with TRUST_PROXY=loopback, as behind a proxy on the same
 * host): every request is counted as usual, none reaches a limit. Between two requests the bench waits until the outbox has no pending
 * row, then SETTLE_MS more, so that the mail worker's pass after one request (rendering and
 * writing the .eml, or dropping the row) runs outside the next one's measurement. Whatever a
 * request still leaves behind weighs on each kind alike: the four kinds (each endpoint, match and
 * no match) follow a de Bruijn sequence, in which each kind comes right after each kind (itself
 * included) equally often. (In a fixed order the forgot-user-id match always came right after a
 * miss, and measured ×1.2–1.5 on a busy machine: the bench's doing, not the portal's.)
 */
import { randomUUID } from 'node:crypto';
import { apiHeaders, CLIENT_ID, openDatabase } from './fixtures.ts';
import { median } from './history.ts';

/** The four kinds of request. */
const KINDS = [
  ['forgotPassword', 'match'],
  ['forgotPassword', 'noMatch'],
  ['forgotUsername', 'match'],
  ['forgotUsername', 'noMatch'],
] as const;
/** Indexes into KINDS, each ordered pair once (taken cyclically): a de Bruijn sequence B(4, 2). */
const SEQUENCE = [0, 0, 1, 0, 2, 0, 3, 1, 1, 2, 1, 3, 2, 2, 3, 3];
/** The same order for any four kinds (the `forgot` part's runs). */
export const KIND_ORDER: readonly number[] = SEQUENCE;
const PER_CYCLE = SEQUENCE.length / KINDS.length;
/** Cycles of SEQUENCE: the first untimed (warm-up), the others timed. */
const CYCLES = 16;
/** Timed requests per kind. */
export const RECOVERY_SAMPLES = (CYCLES - 1) * PER_CYCLE;
/** After the outbox is empty: time for the worker's pass to end. */
const SETTLE_MS = 100;
/** "Within 10%": |match / no match − 1| at most this. */
export const RECOVERY_TOLERANCE = 0.1;
const PREFIX = 'benchmail';

export interface RecoveryCase {
  endpoint: 'forgotPassword' | 'forgotUsername';
  matchMs: number;
  noMatchMs: number;
  /** match median / no-match median */
  ratio: number;
  samples: number;
  /** Replies other than 200 (none expected: a limit reached would show here). */
  non200: number;
}

export interface RecoveryResults {
  cases: RecoveryCase[];
}

const participantName = (i: number) => `${PREFIX}${String(i).padStart(3, '0')}`;

/** One active participant per timed or warm-up request of the match side (each asked for once per endpoint). */
export async function addRecoveryData(databaseUrl: string): Promise<void> {
  const db = openDatabase(databaseUrl);
  try {
    const demo = await db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', CLIENT_ID)
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = Array.from({ length: CYCLES * PER_CYCLE }, (_, i) => ({
      ...demo,
      id: randomUUID(),
      username: participantName(i),
      username_key: participantName(i),
      email: `${participantName(i)}@example.com`,
      account_number: String(3_000_000 + i),
      status: 'active',
      created_at: now,
    }));
    await db.insertInto('participants').values(rows).execute();
  } finally {
    await db.destroy();
  }
}

export async function runRecovery(baseUrl: string, databaseUrl: string, log: (line: string) => void): Promise<RecoveryResults> {
  const db = openDatabase(databaseUrl);
  let address = 0;
  const non200 = { forgotPassword: 0, forgotUsername: 0 };
  /** Resolves once the worker has handled every queued row (sent, failed or dropped); 10 s at most. */
  const outboxDrained = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('status', 'in', ['pending', 'sending'])
        .executeTakeFirstOrThrow();
      if (Number(row.n) === 0) return;
      if (Date.now() > deadline) throw new Error('the outbox did not drain within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const timed = async (path: 'forgotPassword' | 'forgotUsername', body: unknown): Promise<number> => {
    address += 1;
    const headers = { ...apiHeaders(), 'x-forwarded-for': `10.16.${address >> 8}.${address & 255}` };
    const start = performance.now();
    const response = await fetch(`${baseUrl}/api/v1.0/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await response.arrayBuffer();
    const ms = performance.now() - start;
    if (response.status !== 200) non200[path] += 1;
    await outboxDrained();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return ms;
  };

  const sides = {
    forgotPassword: {
      match: (i: number) => timed('forgotPassword', { userName: participantName(i), emailAddress: `${participantName(i)}@example.com` }),
      noMatch: (i: number) => timed('forgotPassword', { userName: `nobody${i}`, emailAddress: `nobody${i}@example.com` }),
    },
    forgotUsername: {
      match: (i: number) => timed('forgotUsername', { emailAddress: `${participantName(i)}@example.com` }),
      noMatch: (i: number) => timed('forgotUsername', { emailAddress: `nobody${i}@example.com` }),
    },
  };
  const samples = {
    forgotPassword: { match: [] as number[], noMatch: [] as number[] },
    forgotUsername: { match: [] as number[], noMatch: [] as number[] },
  };
  // Each match names a participant not asked for yet, each miss a name of its own.
  const next = { forgotPassword: { match: 0, noMatch: 0 }, forgotUsername: { match: 0, noMatch: 0 } };
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      for (const kind of SEQUENCE) {
        const [endpoint, side] = KINDS[kind]!;
        const ms = await sides[endpoint][side](next[endpoint][side]++);
        if (cycle > 0) samples[endpoint][side].push(ms);
      }
    }
  } finally {
    await db.destroy();
  }
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const cases = (['forgotPassword', 'forgotUsername'] as const).map((endpoint): RecoveryCase => {
    const matchMs = median(samples[endpoint].match);
    const noMatchMs = median(samples[endpoint].noMatch);
    const c = {
      endpoint,
      matchMs: round2(matchMs),
      noMatchMs: round2(noMatchMs),
      ratio: Math.round((matchMs / noMatchMs) * 1000) / 1000,
      samples: RECOVERY_SAMPLES,
      non200: non200[endpoint],
    };
    log(`${endpoint}: match ${c.matchMs} ms, no match ${c.noMatchMs} ms (median of ${RECOVERY_SAMPLES} each), ×${c.ratio}`);
    return c;
  });
  return { cases };
}

export const withinTolerance = (c: RecoveryCase) => Math.abs(c.ratio - 1) <= RECOVERY_TOLERANCE && c.non200 === 0;
