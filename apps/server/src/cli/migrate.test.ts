import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlOf, rewardsJson, runRewards } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { exited } from '../../test/server-process.ts';
import {
  DatabaseNewerThanCodeError,
  KNOWN_MIGRATIONS,
  NEWEST_KNOWN_MIGRATION,
  migrateToLatest,
  type MigrationStatus,
} from '../db/migrate.ts';

const MAIN = join(import.meta.dirname, '..', 'main.ts');
const FUTURE = '999-from-a-newer-version';

/** `rewards migrate [--status]` and the refusal of a database a newer version migrated (issue 28 §5, docs/decisions/080). */
describe.each(dialects)('migrations and versions on %s', (dialect) => {
  let database: TestDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'rewards-migrate-'));
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--status: everything applied, nothing pending, the code not older', async () => {
    const status = await rewardsJson<MigrationStatus & { codeIsOlder: boolean }>(database, ['migrate', '--status']);
    expect(status.applied.map((m) => m.name)).toEqual(KNOWN_MIGRATIONS);
    expect(status).toMatchObject({ pending: [], unknown: [], newestKnown: NEWEST_KNOWN_MIGRATION, codeIsOlder: false });
  });

  it.runIf(dialect === 'sqlite')(
    'on a new file: --status creates nothing and lists all as pending; migrate applies and names them',
    async () => {
      const url = `file:${join(dir, 'new', 'rewards.db')}`;
      const status = await rewardsJson<MigrationStatus>(url, ['migrate', '--status']);
      expect(status.pending).toEqual(KNOWN_MIGRATIONS);
      expect(existsSync(join(dir, 'new', 'rewards.db'))).toBe(false);
      expect((await rewardsJson<{ applied: string[] }>(url, ['migrate'])).applied).toEqual(KNOWN_MIGRATIONS);
      const again = await runRewards(url, ['migrate']);
      expect(again.stdout).toBe('Migrations are up to date.\n');
    },
  );

  it(
    'a database a newer version migrated: --status says so, commands and the server refuse, naming both migrations',
    { timeout: 120_000 },
    async () => {
      await sql`insert into kysely_migration (name, ${sql.ref('timestamp')}) values (${FUTURE}, ${new Date().toISOString()})`.execute(
        database.db,
      );
      const status = await runRewards(database, ['migrate', '--status']);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(
        `The code is OLDER than the database: it has ${FUTURE}, which this code does not know (the newest this code knows is ${NEWEST_KNOWN_MIGRATION}).`,
      );
      const said = `this database was migrated by a newer version of the portal: it has migration ${FUTURE}, which this code does not know (the newest this code knows is ${NEWEST_KNOWN_MIGRATION})`;
      for (const args of [['migrate'], ['audit']]) {
        const run = await runRewards(database, args);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`rewards: ${said}`);
      }
      await expect(migrateToLatest(database.db)).rejects.toBeInstanceOf(DatabaseNewerThanCodeError);

      const server = spawn(process.execPath, [MAIN], {
        env: { ...process.env, DATABASE_URL: databaseUrlOf(database), PORT: '0', WEB_DIST: '', DATA_DIR: dir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await exited(server)).not.toBe(0);
      expect(stderr).toContain(said);

      await sql`delete from kysely_migration where name = ${FUTURE}`.execute(database.db);
    },
  );
});
