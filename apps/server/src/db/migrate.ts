import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/001-initial.ts';
import type { Db } from './database.ts';

/** Migrations listed in code, so a build or bundle never has to find them on disk. */
const migrations: Record<string, Migration> = {
  '001-initial': initial,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
