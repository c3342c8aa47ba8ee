/**
 * API under load on the embedded SQLite default: the bare Fastify baseline first, then each
 * case of the issue against one portal process, with its ratio to the baseline.
 */
import { startBareServer } from './baseline.ts';
import { apiHeaders, benchCode, BROWSER_ACCEPT_ENCODING, REDEEM_USER, signIn, STATEMENT_USER } from './fixtures.ts';
import { load, loadSideBySide, type LoadResult } from './load.ts';
import { rssAfterLoad, rssMb, type RssAfterLoad } from './memory.ts';
import type { Portal } from './portal.ts';
import { rawCommitRate, type RawCommitResult } from './raw-commit.ts';

export interface ApiCase extends LoadResult {
  name: string;
  /** requests/s over the baseline's */
  ratio: number;
}

export interface ApiResults {
  /** The median of the baseline's runs (one beside each case, in turns with it; the case's ratio is to it). */
  baseline: LoadResult;
  baselineRuns: number[];
  cases: ApiCase[];
  login: ApiCase;
  rssAfterStartMb: number | undefined;
  /**
   * Resident memory after each load on the portal, in the order run (the sign-ins last), read once
   * the work the load left in the server's thread pool had ended (memory.ts rssAfterLoad): the memory
   * budget's readings (memory.ts judgeMemory, decision 058).
   */
  rssAfterLoads: RssAfterLoad[];
  /**
   * Redemptions answered 200, and credits found in the ledger after the server was killed (-9):
   * at least as many (those in flight when a load stopped may have committed unanswered).
   */
  durability?: { acknowledged: number; inLedgerAfterKill: number };
  /**
   * The disk's raw durable single-row commit rate (raw-commit.ts), the redemptions' floor
   * (issue 18): half of the case's seconds just before the redemption load, half just after.
   */
  rawCommit?: RawCommitResult;
}

export interface LoadTiming {
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

/** Bodies with the bench codes in turn, each once (see addBenchData), for one database. */
export function redeemBodies(): () => string {
  let next = 0;
  return () => JSON.stringify({ code: benchCode(next++), userName: REDEEM_USER });
}

/** Named in the two cached endpoints' cases that the budgets judge (budgets.ts). */
export const AS_A_BROWSER = '(br, as a browser asks)';

const ratioOf = (r: LoadResult, baseline: LoadResult) => Math.round((r.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000;

function specsOf(api: string, demo: string, statementSession: string, redeemSession: string) {
  return [
    { name: 'GET user', url: `${api}/user`, headers: apiHeaders(demo) },
    {
      name: 'GET user/account/statement (200 entries)',
      url: `${api}/user/account/statement?username=${STATEMENT_USER}&locale=en-US`,
      headers: apiHeaders(statementSession),
    },
    // As a browser asks (brotli, decisions 016, 056): the budgets judge these. The same without any
    // Accept-Encoding, uncompressed, follows each for reference (no budget).
    {
      name: `GET viewConfig/client ${AS_A_BROWSER}`,
      url: `${api}/viewConfig/client`,
      headers: { ...apiHeaders(), 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    },
    { name: 'reference: GET viewConfig/client, uncompressed (no Accept-Encoding)', url: `${api}/viewConfig/client`, headers: apiHeaders() },
    {
      name: `GET viewConfig/bundle/en-US ${AS_A_BROWSER}`,
      url: `${api}/viewConfig/bundle/en-US`,
      headers: { ...apiHeaders(), 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    },
    {
      name: 'reference: GET viewConfig/bundle/en-US, uncompressed (no Accept-Encoding)',
      url: `${api}/viewConfig/bundle/en-US`,
      headers: apiHeaders(),
    },
    {
      name: 'POST ots/redeem (distinct codes)',
      url: `${api}/ots/redeem`,
      method: 'POST' as const,
      headers: apiHeaders(redeemSession),
      nextBody: redeemBodies(),
    },
  ];
}

/**
 * `databaseDirectory`: the bench database's directory, where the raw commit rate is measured
 * (the same disk).
 */
export async function runApi(
  portal: Portal,
  timing: LoadTiming,
  databaseDirectory: string,
  log: (line: string) => void,
): Promise<ApiResults> {
  const { seconds, warmupSeconds, connections } = timing;
  const rssAfterStartMb = rssMb(portal.pid);

  const api = `${portal.baseUrl}/api/v1.0`;
  const demo = await signIn(portal.baseUrl, 'demo');
  const statementSession = await signIn(portal.baseUrl, STATEMENT_USER);
  const redeemSession = await signIn(portal.baseUrl, REDEEM_USER);

  // Each case runs in turns with the baseline and its ratio is to the baseline's turns
  // (loadSideBySide): a neighbour's load that comes or goes during the bench shifts both sides of
  // a ratio alike.
  const bare = await startBareServer();
  const cases: ApiCase[] = [];
  const baselines: LoadResult[] = [];
  const rssAfterLoads: RssAfterLoad[] = [];
  const rawCommits: RawCommitResult[] = [];
  try {
    // Turns of 2 s, as many as fit in the case's seconds (two at least).
    const sliceSeconds = Math.min(2, seconds);
    const slices = Math.max(2, Math.round(seconds / sliceSeconds));
    // Client data and bundles are sent as ready bytes; what sending that many bytes costs the bare
    // framework on loopback is their ceiling. Measured alike, reported apart (no budget).
    // (fetch would ask for and undo a compression: the lengths are read as sent, from the header.)
    const sentBytes = async (acceptEncoding: string) =>
      Number(
        (
          await fetch(`${api}/viewConfig/client`, { method: 'HEAD', headers: { ...apiHeaders(), 'accept-encoding': acceptEncoding } })
        ).headers.get('content-length'),
      );
    const clientBytes = await sentBytes('identity');
    const brotliBytes = await sentBytes(BROWSER_ACCEPT_ENCODING);
    const kB = (bytes: number) => Math.round(bytes / 100) / 10;
    const references = [
      {
        name: `reference: bare Fastify route sending ${kB(clientBytes)} kB (client data's size)`,
        url: `${bare.url}/bytes/${clientBytes}`,
        headers: {},
      },
      {
        name: `reference: bare Fastify route sending ${kB(brotliBytes)} kB (client data's size in brotli)`,
        url: `${bare.url}/bytes/${brotliBytes}`,
        headers: {},
      },
    ];
    const portalSpecs = specsOf(api, demo, statementSession, redeemSession);
    for (const spec of [...portalSpecs, ...references]) {
      // The bare route warms up once, before the first case.
      if (baselines.length === 0) await load({ url: bare.url, connections }, warmupSeconds, 0);
      const redeem = spec.name.startsWith('POST ots/redeem');
      if (redeem) rawCommits.push(rawCommitRate(databaseDirectory, seconds / 2));
      const { result, baseline: before } = await loadSideBySide(
        { ...spec, connections },
        { url: bare.url, connections },
        slices,
        sliceSeconds,
        warmupSeconds,
      );
      if (redeem) rawCommits.push(rawCommitRate(databaseDirectory, seconds / 2));
      baselines.push(before);
      cases.push({ name: spec.name, ...result, ratio: ratioOf(result, before) });
      // The references load the bare server, not the portal: nothing to read after them.
      if (portalSpecs.includes(spec)) {
        const { mb, instantMb } = await rssAfterLoad(portal.pid);
        rssAfterLoads.push({ after: spec.name, mb, instantMb });
      }
      log(
        `${spec.name}: ${result.requestsPerSecond} requests/s (baseline ${before.requestsPerSecond}), ${result.non2xx} non-2xx, ${result.errors} errors`,
      );
    }
  } finally {
    await bare.stop();
  }
  const rawCommit = combineRawCommits(rawCommits);
  if (rawCommit) log(`raw durable single-row commits (WAL, synchronous=FULL, same disk): ${rawCommit.commitsPerSecond}/s`);
  const baselineRuns = baselines.map((b) => b.requestsPerSecond);
  const middle = [...baselines].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(baselines.length / 2)]!;
  const baseline = middle;
  // argon2id on purpose (slow by design): few connections, or it measures queueing.
  const loginResult = await load(
    {
      url: `${api}/login`,
      method: 'POST',
      headers: apiHeaders(),
      body: JSON.stringify({ username: 'newbie', password: 'Rewards-2026!' }),
      connections: 4,
    },
    seconds,
    Math.min(1, warmupSeconds),
  );
  const login = { name: 'POST login (argon2id, 4 connections)', ...loginResult, ratio: ratioOf(loginResult, baseline) };
  log(`login: ${login.requestsPerSecond} requests/s`);
  // Once the argon2id runs (19 MiB each) of the sign-ins the load left in flight have ended (decision 058).
  const { mb, instantMb } = await rssAfterLoad(portal.pid);
  rssAfterLoads.push({ after: login.name, mb, instantMb });
  log(
    `resident memory after each load (MB): ${rssAfterLoads.map((r) => r.mb ?? '?').join(', ')} (at the instant: ${rssAfterLoads.map((r) => r.instantMb ?? '?').join(', ')})`,
  );
  return { baseline, baselineRuns, cases, login, rssAfterStartMb, rssAfterLoads, ...(rawCommit ? { rawCommit } : {}) };
}

function combineRawCommits(runs: RawCommitResult[]): RawCommitResult | undefined {
  if (runs.length === 0) return undefined;
  const commits = runs.reduce((total, r) => total + r.commits, 0);
  const seconds = runs.reduce((total, r) => total + r.seconds, 0);
  return { commitsPerSecond: Math.round(commits / seconds), commits, seconds: Math.round(seconds * 10) / 10 };
}
