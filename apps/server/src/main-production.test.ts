// Decision 072: a process started with NODE_ENV=production seeds no demo, serves no demo catalog,
// refuses a database that holds the demo's published credentials until `rewards demo remove` took
// them away, writes no live link to its log, and keeps its SQLite files owner-only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_API_BASE, consolePaths, ENROLMENT_TOKEN_HEADER } from '@rewards/contract/console';
import { createTestDatabase, dialects } from '../test/databases.ts';
import { databaseUrlOf, runRewards } from '../test/cli.ts';
import { freePort } from '../test/ports.ts';
import { exited, startServer } from '../test/server-process.ts';
import { seedOtherClient } from '../test/other-client.ts';
import { createDatabase } from './db/database.ts';
import { DEMO_PASSWORD, seedDemo } from './db/seed/demo.ts';
import { parseEml } from './modules/mail/eml.ts';

const MAIN = join(import.meta.dirname, 'main.ts');
const headers = { 'content-type': 'application/json', 'client-id': 'http://localhost:3000' };
const RESET_LINK = /https?:\/\/\S+\/reset-password\?passwordGuid=([A-Za-z0-9_-]{43})/;
const CONSOLE_ORIGIN = 'https://console.rewards.example';
/** Production, at OWASP's hashing cost: the test runs' cheap one (vitest.config.ts) is refused there (decision 088). */
const PRODUCTION = { NODE_ENV: 'production', PASSWORD_HASH_COST: 'owasp' };

/** A GET with a Host header of our choosing (fetch will not send one), as a browser on the console's origin would. */
function getWithHost(base: string, host: string, path: string, extra: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { host, ...extra } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** main.ts run to its end: its exit code and what it wrote. */
async function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', WEB_DIST: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await exited(child);
  return { code, stdout, stderr };
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

// Each story starts real server processes from source: their own deadline (test/server-process.ts), not the suite's 20 s.
describe('a production start', { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rewards-production-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('on a new SQLite file: no demo, no demo catalog, files 0600, and the first owner made by the command', async () => {
    const path = join(tempDir(), 'rewards.db');
    const env = { ...PRODUCTION, CONSOLE_ORIGIN, TRUST_PROXY: 'false', DRAIN_SECONDS: '0' };
    const server = await startServer(`file:${path}`, env);
    try {
      // Created by the server, before anything of ours opened it.
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual(['600', '600', '600']);

      expect((await fetch(`${server.base}/demo-catalog/catalog.css`)).status).toBe(404);
      expect((await fetch(`${server.base}/demo-catalog/merchandise`)).status).toBe(404);
      const login = await fetch(`${server.base}/api/v1.0/login`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(400);
      expect(await login.json()).toMatchObject({ responseMessage: 'error.unknownClient' });
      const db = createDatabase({ dialect: 'sqlite', path });
      try {
        for (const table of ['clients', 'participants', 'staff', 'catalog_partners'] as const) {
          const { n } = await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          expect([table, Number(n)]).toEqual([table, 0]);
        }
      } finally {
        await db.destroy();
      }

      // The first owner: the command prints the single-use enrolment link on the console's origin, and the link works.
      const created = await runRewards(
        `file:${path}`,
        ['staff', 'create', 'olga@rewards.example', '--name', 'Olga Owner', '--owner', '--reason', 'first owner'],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      const token = new RegExp(`${CONSOLE_ORIGIN}/console/enrol#(\\S+)`).exec(created.stdout)?.[1];
      expect(token).toBeDefined();
      const enrolment = await getWithHost(server.base, new URL(CONSOLE_ORIGIN).host, `${CONSOLE_API_BASE}${consolePaths.enrolment}`, {
        [ENROLMENT_TOKEN_HEADER]: token ?? '',
      });
      expect(enrolment.status, enrolment.body).toBe(200);
      expect(JSON.parse(enrolment.body)).toMatchObject({ email: 'olga@rewards.example', owner: true, step: 'password' });
    } finally {
      await server.stop();
    }
  });

  it.each(dialects)(
    'on %s: refuses a database holding the demo, naming the command; after it, serves, and its log carries no link',
    async (dialect) => {
      const database = await createTestDatabase(dialect);
      const dataDir = tempDir();
      try {
        // A database that got the demo in development (a new embedded file, or `rewards seed-demo`), staff included.
        await seedDemo(database.db, new Date(), { dataDir });
        const url = databaseUrlOf(database);
        const env = { ...PRODUCTION, DATA_DIR: dataDir, TRUST_PROXY: 'false', DRAIN_SECONDS: '0' };

        const refused = await runToExit({ ...env, DATABASE_URL: url });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain('Refusing to start with NODE_ENV=production');
        expect(refused.stderr).toContain('owner@rewards.localhost');
        expect(refused.stderr).toContain("12 participant(s) whose password is the demo's published one");
        expect(refused.stderr).toContain('catalog partner demo-catalog (client acme)');
        expect(refused.stderr).toContain('rewards demo remove --reason <text>');
        // Nothing was served: it never listened.
        expect(refused.stdout).not.toContain('listening');

        const removal = await runRewards(database, ['demo', 'remove', '--reason', 'going live'], { env });
        expect(removal.code, removal.stderr).toBe(0);

        const server = await startServer(url, { ...env, LOG_LEVEL: 'info' });
        try {
          const post = (path: string, body: unknown) =>
            fetch(`${server.base}/api/v1.0${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
          expect((await post('/login', { username: 'demo', password: DEMO_PASSWORD })).status).toBe(401);
          expect((await fetch(`${server.base}/demo-catalog/catalog.css`)).status).toBe(404);

          // Without SMTP_URL the reset mail is an .eml in the outbox; the log says only that it was written.
          expect((await post('/forgotPassword', { userName: 'demo', emailAddress: 'demo@example.com' })).status).toBe(200);
          const line = await server.logLine((l) => l.includes('mail resetPassword'), 30_000);
          expect(line).toContain('written to');
          const outbox = join(dataDir, 'outbox');
          const eml = readdirSync(outbox).find((name) => name.includes('resetPassword'));
          const token = RESET_LINK.exec(parseEml(readFileSync(join(outbox, eml ?? ''), 'utf8')).text)?.[1];
          expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(server.log().filter((l) => l.includes(token ?? '') || l.includes('passwordGuid'))).toEqual([]);
          expect(server.log().join('\n')).not.toContain('demo@example.com');
        } finally {
          expect(await server.stop()).toBe(0);
        }
      } finally {
        await database.drop();
      }
    },
  );

  // Decision 081: TRUST_PROXY named, https portal addresses (loopback aside), checked at start and on every change.
  it('refuses to start without TRUST_PROXY, or with a client whose portal address is http, and the command refuses to set one', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      await seedOtherClient(database.db);
      const url = databaseUrlOf(database);
      const base = { ...PRODUCTION, DATA_DIR: tempDir(), DATABASE_URL: url };

      const unnamed = await runToExit(base);
      expect(unnamed.code).toBe(2);
      expect(unnamed.stderr).toContain("TRUST_PROXY: required with NODE_ENV=production: set it to the proxy's address");

      const env = { ...base, TRUST_PROXY: 'loopback' };
      // The command refuses an http address off this machine; a loopback one is fine.
      const http = await runRewards(
        database,
        ['clients', 'update', '--client', 'globex', '--origin', 'http://shop.globex.example', '--portal-url', 'http://shop.globex.example'],
        { env },
      );
      expect(http.code).not.toBe(0);
      expect(http.stderr).toContain('--portal-url: must be https:// with NODE_ENV=production');
      const local = await runRewards(
        database,
        [
          'clients',
          'update',
          '--client',
          'globex',
          '--origin',
          'http://globex.localhost:3000',
          '--portal-url',
          'http://globex.localhost:3000',
        ],
        { env },
      );
      expect(local.code, local.stderr).toBe(0);

      // One written before production was turned on (or by hand): the start names it.
      await database.db.insertInto('client_hosts').values({ hostname: 'shop.globex.example', client_id: 'globex' }).execute();
      await database.db.updateTable('clients').set({ portal_url: 'http://shop.globex.example' }).where('id', '=', 'globex').execute();
      const refused = await runToExit(env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Refusing to start with NODE_ENV=production: a portal address is not https');
      expect(refused.stderr).toContain('globex: http://shop.globex.example must be https://');

      await database.db.updateTable('clients').set({ portal_url: 'https://shop.globex.example' }).where('id', '=', 'globex').execute();
      const server = await startServer(url, { ...env, DRAIN_SECONDS: '0', LOG_LEVEL: 'info' });
      try {
        const line = await server.logLine((l) => l.includes('Rewards portal at'));
        expect(line).toContain('production; database SQLite');
        expect(line).toContain('proxy trust loopback; metrics off; mail .eml files in');
        expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      await database.drop();
    }
  });

  // Decision 088: the cheap hashing cost of test runs never reaches an installation.
  it("refuses to start, server and command, with a password hashing cost below OWASP's minimum", async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const env = { ...PRODUCTION, PASSWORD_HASH_COST: 'test-only-minimum', DATA_DIR: tempDir(), TRUST_PROXY: 'false' };
      const server = await runToExit({ ...env, DATABASE_URL: databaseUrlOf(database) });
      expect(server.code).toBe(2);
      expect(server.stderr).toContain("PASSWORD_HASH_COST: test-only-minimum is below OWASP's minimum for argon2id (19 MiB, 2 passes)");
      expect(server.stdout).not.toContain('Rewards portal at');
      const command = await runRewards(database, ['clients', 'list'], { env });
      expect(command.code).toBe(2);
      expect(command.stderr).toContain("PASSWORD_HASH_COST: test-only-minimum is below OWASP's minimum for argon2id");
    } finally {
      await database.drop();
    }
  });
});
