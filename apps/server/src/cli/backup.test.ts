import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { createEmptyPostgresDatabase, createTestDatabase, dialects, type Dialect, type TestDatabase } from '../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../test/ledger-invariant.ts';
import { databaseConfigFromUrl, loadConfig } from '../config.ts';
import { DEMO_STAFF } from '../db/seed/demo-staff.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { NEWEST_KNOWN_MIGRATION } from '../db/migrate.ts';
import { rowCount } from '../db/row-count.ts';
import type { BackupManifest, RestoreResult } from '../modules/backup/service.ts';
import { startSession } from '../modules/sessions/service.ts';
import { openTotpSecret } from '../modules/staff/secrets.ts';
import { startFullSession } from '../modules/staff/sessions.ts';

interface BackupJson {
  dir: string;
  notes: string[];
  manifest: BackupManifest;
}

/** A new place to restore into: a file path not yet there, or an empty PostgreSQL database. */
async function newTarget(dialect: Dialect, dir: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `file:${join(dir, name, 'rewards.db')}`, drop: async () => {} };
  return createEmptyPostgresDatabase();
}

async function withDb<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const db = createDatabase(databaseConfigFromUrl(url));
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

const counts = (db: Db) =>
  Promise.all(
    (['participants', 'ledger_entries', 'point_lots', 'staff', 'staff_roles', 'audit_log'] as const).map((table) => rowCount(db, table)),
  );

/** `rewards backup` and `rewards restore` (issue 28 §4, docs/decisions/080), in this process; the drill with a live server is modules/backup/restore-drill.test.ts. */
describe.each(dialects)('rewards backup and restore on %s', (dialect) => {
  let dir: string;
  let dataDir: string;
  let source: TestDatabase;
  const drops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rewards-backup-'));
    dataDir = join(dir, 'data');
    source = await createTestDatabase(dialect);
    const seeded = await runRewards(source, ['seed-demo'], { env: { DATA_DIR: dataDir } });
    expect(seeded.code, seeded.stderr).toBe(0);
    // A session of each kind, which the restored database must not let back in.
    const demo = await source.db.selectFrom('participants').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    await startSession(source.db, { idleMinutes: 30, maxHours: 12 }, 'acme', demo.id, false);
    const owner = await source.db
      .selectFrom('staff')
      .select('id')
      .where('email_key', '=', 'owner@rewards.localhost')
      .executeTakeFirstOrThrow();
    await startFullSession(source.db, owner.id, '127.0.0.1', new Date());
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
    await source.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const backup = (to: string, extra: string[] = []) => runRewards(source, ['backup', '--to', to, ...extra], { env: { DATA_DIR: dataDir } });
  const restore = (url: string, from: string, data: string, extra: string[] = []) =>
    runRewards(url, ['restore', '--from', from, ...extra], { env: { DATA_DIR: data } });

  it('backs up into a new directory: the database checked, the keys 0600, a manifest with the schema, sizes and sha256', async () => {
    const to = join(dir, 'backup-1');
    const made = await rewardsJson<BackupJson>(source, ['backup', '--to', to], { env: { DATA_DIR: dataDir } });
    const { manifest } = made;
    expect(manifest).toMatchObject({
      format: 'rewards-backup/1',
      engine: dialect,
      schema: { lastMigration: NEWEST_KNOWN_MIGRATION },
      database: {
        path: dialect === 'sqlite' ? 'database.sqlite' : 'database.dump',
        check: dialect === 'sqlite' ? 'PRAGMA integrity_check: ok' : expect.stringMatching(/^pg_restore --list: \d+ entries$/),
      },
    });
    expect(manifest.keys.map((k) => k.path)).toEqual(['keys/sso-secret-key']);
    expect(readFileSync(join(to, 'keys', 'sso-secret-key'))).toEqual(readFileSync(join(dataDir, 'sso-secret-key')));
    // The signing key is made on first use: the backup says so rather than leaving it out silently.
    expect(made.notes.join('\n')).toContain('punch-out signing key is not in');
    // One self-contained file per part, owner-only; nothing half-made left beside it.
    expect(readdirSync(to).sort()).toEqual([manifest.database.path, 'keys', 'manifest.json'].sort());
    for (const file of [manifest.database.path, 'keys/sso-secret-key', 'manifest.json'])
      expect((statSync(join(to, file)).mode & 0o777).toString(8)).toBe('600');
    expect(readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
    expect(manifest.database.bytes).toBe(statSync(join(to, manifest.database.path)).size);
  });

  it('restores into a new database: the same rows, the keys into DATA_DIR, every session ended, the restore audited', async () => {
    const to = join(dir, 'backup-2');
    expect((await backup(to)).code).toBe(0);
    const target = await newTarget(dialect, dir, 'restored-2');
    drops.push(target.drop);
    const restoredData = join(dir, 'restored-2-data');
    const run = await restore(target.url, to, restoredData, ['--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as RestoreResult;
    expect(result.sessionsEnded).toEqual({ participants: 1, staff: 1 });
    expect(result.keys).toEqual({ written: ['sso-secret-key'], same: [], keptAside: [] });
    expect(readFileSync(join(restoredData, 'sso-secret-key'))).toEqual(readFileSync(join(dataDir, 'sso-secret-key')));
    expect((statSync(join(restoredData, 'sso-secret-key')).mode & 0o777).toString(8)).toBe('600');

    const before = await counts(source.db);
    // The summary's figures: what the restored ledger owes is the sum of the source's balances.
    const owed = await source.db
      .selectFrom('participants')
      .select((eb) => eb.fn.sum<string | number | null>('balance').as('total'))
      .executeTakeFirstOrThrow();
    expect(result.contents).toEqual({
      clients: await rowCount(source.db, 'clients'),
      participants: before[0],
      ledgerEntries: before[1],
      points: Number(owed.total ?? 0),
      staff: before[3],
    });
    await withDb(target.url, async (db) => {
      const after = await counts(db);
      // The same rows, and one audit entry more: the restore's.
      expect(after).toEqual([...before.slice(0, 5), before[5]! + 1]);
      expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('staff_sessions').selectAll().execute()).toEqual([]);
      const audit = await db
        .selectFrom('audit_log')
        .select(['action', 'actor_kind', 'subject'])
        .where('action', '=', 'database.restore')
        .execute();
      expect(audit).toEqual([{ action: 'database.restore', actor_kind: 'operator', subject: to }]);
      await expectLedgerMatchesBalances(db);
    });
    // The source keeps its sessions: a backup changes nothing.
    expect(await source.db.selectFrom('sessions').selectAll().execute()).toHaveLength(1);
  });

  it('refuses what would lose something, changing nothing: a used directory, a live database, different keys, a damaged backup', async () => {
    const to = join(dir, 'backup-3');
    expect((await backup(to)).code).toBe(0);
    const again = await backup(to);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is not empty: a backup goes into a new directory');

    // A live database: the source itself.
    const live = await restore(
      dialect === 'sqlite' ? `file:${(source.config as { path: string }).path}` : (source.config as { url: string }).url,
      to,
      dataDir,
    );
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(
      dialect === 'sqlite' ? /there is a database at .* already/ : /has \d+ tables: restore into a new, empty database/,
    );

    // Another installation's key in the target DATA_DIR.
    const target = await newTarget(dialect, dir, 'restored-3');
    drops.push(target.drop);
    const otherData = join(dir, 'restored-3-data');
    const otherKey = 'A'.repeat(43);
    mkdirSync(otherData, { recursive: true });
    writeFileSync(join(otherData, 'sso-secret-key'), otherKey, { mode: 0o600 });
    const keys = await restore(target.url, to, otherData);
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain('holds a different key than the backup');
    expect(readFileSync(join(otherData, 'sso-secret-key'), 'utf8')).toBe(otherKey);
    if (dialect === 'sqlite') expect(existsSync(join(dir, 'restored-3', 'rewards.db'))).toBe(false);
    else
      await withDb(target.url, async (db) =>
        expect((await sql`select count(*)::int as n from pg_tables where schemaname = 'public'`.execute(db)).rows).toEqual([{ n: 0 }]),
      );

    // --force: the key replaced, the old one kept aside.
    const forced = await restore(target.url, to, otherData, ['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(otherData, 'sso-secret-key'))).toEqual(readFileSync(join(dataDir, 'sso-secret-key')));
    const aside = readdirSync(otherData).filter((name) => name.startsWith('sso-secret-key.replaced-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(otherData, aside[0]!), 'utf8')).toBe(otherKey);
    expect(forced.stdout).toContain('replaced ones kept as');

    // Over a live database with --force: replaced by the backup.
    const over = await restore(target.url, to, otherData, ['--force']);
    expect(over.code, over.stderr).toBe(0);
    expect(over.stdout).toContain('already there sso-secret-key');

    // A damaged backup is refused before anything is touched.
    const damaged = join(dir, 'backup-3-damaged');
    cpSync(to, damaged, { recursive: true });
    const file = join(damaged, dialect === 'sqlite' ? 'database.sqlite' : 'database.dump');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(file, bytes);
    const fresh = await newTarget(dialect, dir, 'restored-3-damaged');
    drops.push(fresh.drop);
    const refused = await restore(fresh.url, damaged, join(dir, 'restored-3-damaged-data'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `the backup is damaged: ${dialect === 'sqlite' ? 'database.sqlite' : 'database.dump'} does not match its manifest`,
    );
    expect(existsSync(join(dir, 'restored-3-damaged-data'))).toBe(false);
  });

  it('without its keys says where they are and that it cannot restore staff; a backup of a newer version is refused', async () => {
    const to = join(dir, 'backup-4');
    const run = await backup(to, ['--no-keys']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `the key that seals staff TOTP secrets and single-sign-on client secrets is ${join(dataDir, 'sso-secret-key')}`,
    );
    expect(run.stdout).toContain('this backup holds no keys: without them a restore cannot open the staff second factors');
    expect(existsSync(join(to, 'keys'))).toBe(false);

    // The manifest of a backup made by a newer version (its checksums still right: only the schema differs).
    const manifestPath = join(to, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
    manifest.schema.migrations.push('999-from-a-newer-version');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const target = await newTarget(dialect, dir, 'restored-4');
    drops.push(target.drop);
    const refused = await restore(target.url, to, join(dir, 'restored-4-data'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `this backup was made by a newer version: it has migration 999-from-a-newer-version, which this code does not know (the newest this code knows is ${NEWEST_KNOWN_MIGRATION})`,
    );
  });

  it('takes the sealing key from SSO_SECRET_KEY_FILE (a systemd credential): it opens the staff second factors, DATA_DIR gets no key file and the backup says where the key is', async () => {
    const credential = join(dir, 'credential-sso-secret-key');
    writeFileSync(credential, `${readFileSync(join(dataDir, 'sso-secret-key'), 'utf8')}\n`, { mode: 0o600 });
    const emptyDataDir = join(dir, 'data-without-keys');
    mkdirSync(emptyDataDir);

    const config = loadConfig({ DATABASE_URL: 'file:./unused.db', DATA_DIR: emptyDataDir, SSO_SECRET_KEY_FILE: credential });
    expect(config.catalog.sealingKey).toBeDefined();
    const owner = await source.db
      .selectFrom('staff')
      .select(['id', 'totp_secret_sealed'])
      .where('email_key', '=', 'owner@rewards.localhost')
      .executeTakeFirstOrThrow();
    const ownerSecret = DEMO_STAFF.find((person) => person.owner)?.totpSecret;
    await expect(openTotpSecret(emptyDataDir, owner.id, owner.totp_secret_sealed ?? '')).resolves.toBe(ownerSecret);
    expect(existsSync(join(emptyDataDir, 'sso-secret-key'))).toBe(false);

    const to = join(dir, 'backup-5');
    const run = await runRewards(source, ['backup', '--to', to], { env: { DATA_DIR: emptyDataDir, SSO_SECRET_KEY_FILE: credential } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'the key that seals staff TOTP secrets and single-sign-on client secrets comes from SSO_SECRET_KEY (or SSO_SECRET_KEY_FILE): keep it with the configuration',
    );
    expect(readdirSync(join(to, 'keys'))).not.toContain('sso-secret-key');
    expect(existsSync(join(emptyDataDir, 'sso-secret-key'))).toBe(false);

    // A wrong key is refused at start, naming the variable and never the value.
    writeFileSync(credential, 'not-a-key\n');
    expect(() => loadConfig({ SSO_SECRET_KEY_FILE: credential })).toThrow(/SSO_SECRET_KEY: must be 32 bytes in base64url/);
  });
});
