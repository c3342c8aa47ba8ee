import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { API_BASE, JWKS_PATH, apiPaths, type UserData } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths } from '@rewards/contract/console';
import { runRewards, spawnRewards } from '../../../test/cli.ts';
import { createEmptyPostgresDatabase, dialects, type Dialect } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { startServer, type ServerProcess } from '../../../test/server-process.ts';
import { databaseConfigFromUrl } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { OTS_ALPHABET, normaliseOtsCode, otsCodeHash } from '../ots/code.ts';
import { insertOtsCodes, newOtsCodeRows } from '../ots/service.ts';

const PORTAL = { 'content-type': 'application/json', 'client-id': 'http://localhost:3000' };
const PASSWORD = 'Rewards-2026!';
/** The README's demo staff: every one's password, and two TOTP secrets. */
const STAFF_PASSWORD = 'Console-Demo-2026';
const OWNER = { email: 'owner@rewards.localhost', secret: '74OXMCESMDEAQPZEHU3OLYRXCOWICIWZ' };
const AGENT = { email: 'agent@acme.example', secret: 'VMESY4GQNQKE2N4VZIPKTY2VZMJCZMBW' };
const CODES = 4_000;
/** Redemptions acknowledged before the backup, and again after it, before the drill goes on. */
const WRITES_AROUND_BACKUP = 30;

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** Distinct valid codes: "DR" and the index in the code alphabet. */
function drillCode(index: number): string {
  let digits = '';
  for (let i = 0, rest = index; i < 6; i++, rest = Math.floor(rest / OTS_ALPHABET.length))
    digits = OTS_ALPHABET[rest % OTS_ALPHABET.length]! + digits;
  return `DR${digits}`;
}

/** Polls until `ready` holds; a deadline, never a fixed sleep. */
async function until(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A console call as its pages make it: the console's host (which fetch cannot set) and origin, the cookie. */
function consoleCall(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { cookie?: string; body?: unknown } = {},
): Promise<{ status: number; body: string; cookie: string | undefined }> {
  const url = new URL(`${base}${CONSOLE_API_BASE}${path}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: {
          host: 'console.localhost:3000',
          ...(method === 'POST' ? { origin: 'http://console.localhost:3000' } : {}),
          ...(options.cookie ? { cookie: `rewards_console=${options.cookie}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const set = res.headers['set-cookie']?.find((c) => c.startsWith('rewards_console='));
          resolve({ status: res.statusCode ?? 0, body: text, cookie: set?.slice('rewards_console='.length).split(';')[0] });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Password, then a TOTP code: the full session's cookie. */
async function staffSignIn(base: string, person: { email: string; secret: string }): Promise<string> {
  const first = await consoleCall(base, 'POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } });
  expect(first.status, first.body).toBe(200);
  const second = await consoleCall(base, 'POST', consolePaths.signInTotp, { cookie: first.cookie, body: { code: totp(person.secret) } });
  expect(second.status, second.body).toBe(200);
  return second.cookie ?? '';
}

async function login(base: string, username: string): Promise<string> {
  const reply = await fetch(`${base}${API_BASE}${apiPaths.login}`, {
    method: 'POST',
    headers: PORTAL,
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as UserData).sessionId;
}

const getUser = (base: string, sessionId: string) =>
  fetch(`${base}${API_BASE}${apiPaths.user}`, { headers: { ...PORTAL, 'x-session-id': sessionId } });

async function jwksKid(base: string): Promise<string> {
  const reply = await fetch(`${base}${JWKS_PATH}`, { headers: PORTAL });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { keys: Array<{ kid: string }> }).keys[0]!.kid;
}

async function withDb<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const db = createDatabase(databaseConfigFromUrl(url));
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

async function newDatabase(dialect: Dialect, dir: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `file:${join(dir, name, 'rewards.db')}`, drop: async () => {} };
  return createEmptyPostgresDatabase();
}

/**
 * The restore drill (issue 28 §4, docs/decisions/080): a real server under redemptions and
 * sign-ins; `rewards backup` in a process of its own while they run; more writes; a restore into
 * a new database and DATA_DIR; a server on it. Every redemption acknowledged before the backup
 * began is there, none acknowledged after it ended; the ledger sums to the balances; a demo
 * staff member signs in with password and TOTP; the sessions of before no longer work.
 */
describe.each(dialects)('the restore drill on %s', { timeout: 400_000 }, (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-drill-'));
  const servers: ServerProcess[] = [];
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) await server.stop();
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up under load, restores into a new database, and the installation starts on it with everything acknowledged before', async () => {
    const dataA = join(dir, 'data-a');
    const a = await newDatabase(dialect, dir, 'a');
    drops.push(a.drop);
    const seeded = await runRewards(a.url, ['seed-demo'], { env: { DATA_DIR: dataA } });
    expect(seeded.code, seeded.stderr).toBe(0);
    const codes = Array.from({ length: CODES }, (_, i) => drillCode(i));
    await withDb(a.url, async (db) => {
      const rows = newOtsCodeRows(
        'acme',
        codes.map((code) => ({ code, value: 10, batch: 'drill' })),
        new Date(),
      );
      for (let from = 0; from < rows.length; from += 500) await insertOtsCodes(db, rows.slice(from, from + 500));
    });
    const serverA = await startServer(a.url, { DATA_DIR: dataA });
    servers.push(serverA);

    // What must not work after the restore: a participant's session and a staff member's cookie of before.
    const oldSession = await login(serverA.base, 'demo');
    const oldStaffCookie = await staffSignIn(serverA.base, AGENT);
    expect((await consoleCall(serverA.base, 'GET', consolePaths.me, { cookie: oldStaffCookie })).status).toBe(200);
    const kid = await jwksKid(serverA.base);

    // The load: redemptions one after the other on two participants, sign-ins beside them.
    const acks: Array<{ code: string; at: number }> = [];
    let signIns = 0;
    let stop = false;
    const next = { index: 0 };
    const redeemer = async (username: string) => {
      const session = await login(serverA.base, username);
      while (!stop && next.index < codes.length) {
        const code = codes[next.index++]!;
        const reply = await fetch(`${serverA.base}${API_BASE}${apiPaths.otsRedeem}`, {
          method: 'POST',
          headers: { ...PORTAL, 'x-session-id': session },
          body: JSON.stringify({ code, userName: username }),
        });
        if (reply.status !== 200) throw new Error(`redeem ${code}: ${reply.status} ${await reply.text()}`);
        await reply.arrayBuffer();
        acks.push({ code, at: Date.now() });
      }
    };
    const signer = async () => {
      while (!stop) {
        await login(serverA.base, 'newbie');
        signIns += 1;
      }
    };
    const load = Promise.all([redeemer('demo'), redeemer('spent'), signer()]);

    await until('redemptions before the backup', () => acks.length >= WRITES_AROUND_BACKUP);
    const backupDir = join(dir, 'backup');
    const backupBegan = Date.now();
    const backup = await spawnRewards(a.url, ['backup', '--to', backupDir, '--json'], { env: { DATA_DIR: dataA } });
    const backupEnded = Date.now();
    expect(backup.code, backup.stderr).toBe(0);
    const during = acks.filter((ack) => ack.at >= backupBegan && ack.at <= backupEnded).length;
    // More writes after the backup, which the restored database must not have.
    const afterBackup = acks.length;
    await until('redemptions after the backup', () => acks.length >= afterBackup + WRITES_AROUND_BACKUP);
    stop = true;
    await load;
    expect(signIns).toBeGreaterThan(0);
    expect(during, 'redemptions acknowledged while the backup ran').toBeGreaterThan(0);

    const dataB = join(dir, 'data-b');
    const b = await newDatabase(dialect, dir, 'b');
    drops.push(b.drop);
    const restore = await spawnRewards(b.url, ['restore', '--from', backupDir], { env: { DATA_DIR: dataB } });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('sessions ended');
    await serverA.stop();

    const serverB = await startServer(b.url, { DATA_DIR: dataB });
    servers.push(serverB);
    const redeemedInB = await withDb(b.url, async (db) => {
      await expectLedgerMatchesBalances(db);
      const rows = await db
        .selectFrom('ots_codes')
        .select('code_hash')
        .where('batch', '=', 'drill')
        .where('status', '=', 'redeemed')
        .execute();
      return new Set(rows.map((r) => r.code_hash));
    });
    const hash = (code: string) => otsCodeHash(normaliseOtsCode(code));
    const before = acks.filter((ack) => ack.at < backupBegan);
    expect(
      before.filter((ack) => !redeemedInB.has(hash(ack.code))).map((ack) => ack.code),
      'acknowledged before the backup began',
    ).toEqual([]);
    const after = acks.filter((ack) => ack.at > backupEnded);
    expect(
      after.filter((ack) => redeemedInB.has(hash(ack.code))).map((ack) => ack.code),
      'acknowledged after the backup ended',
    ).toEqual([]);

    // The installation works on it: a sign-in reads the restored balance, a staff member gets in with password and TOTP.
    const fresh = await login(serverB.base, 'demo');
    const user = await getUser(serverB.base, fresh);
    expect(user.status).toBe(200);
    const balance = await withDb(
      b.url,
      async (db) =>
        (
          await db
            .selectFrom('participants')
            .select('balance')
            .where('client_id', '=', 'acme')
            .where('username', '=', 'demo')
            .executeTakeFirstOrThrow()
        ).balance,
    );
    expect(((await user.json()) as UserData).accountBalance).toBe(balance);
    const ownerCookie = await staffSignIn(serverB.base, OWNER);
    const me = await consoleCall(serverB.base, 'GET', consolePaths.me, { cookie: ownerCookie });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ email: OWNER.email });
    // The catalogs still trust the punch-out links: the same signing key.
    expect(await jwksKid(serverB.base)).toBe(kid);

    // And what was signed in before the backup is signed out.
    expect((await getUser(serverB.base, oldSession)).status).toBe(401);
    expect((await consoleCall(serverB.base, 'GET', consolePaths.me, { cookie: oldStaffCookie })).status).toBe(401);
  });
});
