import { Migrator, SqliteAdapter, sql, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/001-initial.ts';
import * as ledgerDescriptions from './migrations/002-ledger-descriptions.ts';
import * as otsCodes from './migrations/003-ots-codes.ts';
import * as catalogs from './migrations/004-catalogs.ts';
import * as contentAndContact from './migrations/005-content-and-contact.ts';
import * as mailOutbox from './migrations/006-mail-outbox.ts';
import * as accountLifecycle from './migrations/007-account-lifecycle.ts';
import * as statementOrderIndex from './migrations/008-statement-order-index.ts';
import * as auditLog from './migrations/009-audit-log.ts';
import * as operatorClients from './migrations/010-operator-clients.ts';
import * as pointsImport from './migrations/011-points-import.ts';
import * as sso from './migrations/012-sso.ts';
import * as launchAs from './migrations/013-launch-as.ts';
import * as contactMailAndSignOutHint from './migrations/014-contact-mail-and-sign-out-hint.ts';
import * as dateOfBirth from './migrations/015-date-of-birth.ts';
import * as attemptLimits from './migrations/016-attempt-limits.ts';
import * as portalUrl from './migrations/017-portal-url.ts';
import * as mailRenderedAtDelivery from './migrations/018-mail-rendered-at-delivery.ts';
import * as catalogPunchouts from './migrations/019-catalog-punchouts.ts';
import * as participantSearchKeys from './migrations/020-participant-search-keys.ts';
import * as staff from './migrations/021-staff.ts';
import * as consoleAdjustments from './migrations/022-console-adjustments.ts';
import * as consoleReads from './migrations/023-console-reads.ts';
import * as installationMail from './migrations/024-installation-mail.ts';
import * as pointsExpiry from './migrations/025-points-expiry.ts';
import * as lotsFromLedger from './migrations/026-lots-from-ledger.ts';
import * as otsBatches from './migrations/027-ots-batches.ts';
import * as importJobs from './migrations/028-import-jobs.ts';
import * as reports from './migrations/031-reports.ts';
import * as staffOidc from './migrations/032-staff-oidc.ts';
import * as staffOidcStepUp from './migrations/033-staff-oidc-step-up.ts';
import * as catalogPartnerRevoked from './migrations/035-catalog-partner-revoked.ts';
import * as participantEmailChangedByStaff from './migrations/036-participant-email-changed-by-staff.ts';
import * as sqliteIncrementalVacuum from './migrations/037-sqlite-incremental-vacuum.ts';
import * as apiKeys from './migrations/038-api-keys.ts';
import * as webhooks from './migrations/039-webhooks.ts';
import * as programApi from './migrations/040-program-api.ts';
import * as earningRules from './migrations/041-earning-rules.ts';
import * as events from './migrations/042-events.ts';
import * as pendingAndReturns from './migrations/043-pending-and-returns.ts';
import * as eventTypes from './migrations/044-event-types.ts';
import * as importLinesAltKeyPresent from './migrations/046-import-lines-alt-key-present.ts';
import * as eventLinesPendingIndexDropped from './migrations/047-event-lines-pending-index-dropped.ts';
import * as ruleVersionsInForceIndex from './migrations/049-rule-versions-in-force-index.ts';
import type { Db } from './database.ts';

/** Migrations listed in code, so a build or bundle never has to find them on disk. */
const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-ledger-descriptions': ledgerDescriptions,
  '003-ots-codes': otsCodes,
  '004-catalogs': catalogs,
  '005-content-and-contact': contentAndContact,
  '006-mail-outbox': mailOutbox,
  '007-account-lifecycle': accountLifecycle,
  '008-statement-order-index': statementOrderIndex,
  '009-audit-log': auditLog,
  '010-operator-clients': operatorClients,
  '011-points-import': pointsImport,
  '012-sso': sso,
  '013-launch-as': launchAs,
  '014-contact-mail-and-sign-out-hint': contactMailAndSignOutHint,
  '015-date-of-birth': dateOfBirth,
  '016-attempt-limits': attemptLimits,
  '017-portal-url': portalUrl,
  '018-mail-rendered-at-delivery': mailRenderedAtDelivery,
  '019-catalog-punchouts': catalogPunchouts,
  '020-participant-search-keys': participantSearchKeys,
  '021-staff': staff,
  '022-console-adjustments': consoleAdjustments,
  '023-console-reads': consoleReads,
  '024-installation-mail': installationMail,
  '025-points-expiry': pointsExpiry,
  '026-lots-from-ledger': lotsFromLedger,
  '027-ots-batches': otsBatches,
  '028-import-jobs': importJobs,
  '031-reports': reports,
  '032-staff-oidc': staffOidc,
  '033-staff-oidc-step-up': staffOidcStepUp,
  '035-catalog-partner-revoked': catalogPartnerRevoked,
  '036-participant-email-changed-by-staff': participantEmailChangedByStaff,
  '037-sqlite-incremental-vacuum': sqliteIncrementalVacuum,
  '038-api-keys': apiKeys,
  '039-webhooks': webhooks,
  '040-program-api': programApi,
  '041-earning-rules': earningRules,
  '042-events': events,
  '043-pending-and-returns': pendingAndReturns,
  '044-event-types': eventTypes,
  '046-import-lines-alt-key-present': importLinesAltKeyPresent,
  '047-event-lines-pending-index-dropped': eventLinesPendingIndexDropped,
  '049-rule-versions-in-force-index': ruleVersionsInForceIndex,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration this code knows, by name; the newest last (names sort in the order their numbers were handed out). */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations).sort();
export const NEWEST_KNOWN_MIGRATION = KNOWN_MIGRATIONS.at(-1)!;

/**
 * A database migrated by a newer version: it holds a migration this code does not know, so this
 * code cannot tell what changed under it (docs/decisions/080). The process refuses to start and
 * `rewards` to run, naming both sides.
 */
export class DatabaseNewerThanCodeError extends Error {
  readonly unknown: readonly string[];
  readonly newestKnown: string;

  constructor(unknown: readonly string[], newestKnown: string) {
    super(
      `this database was migrated by a newer version of the portal: it has migration ${unknown.join(', ')}, ` +
        `which this code does not know (the newest this code knows is ${newestKnown}); ` +
        'run the newer version, or restore a backup made before the upgrade',
    );
    this.unknown = unknown;
    this.newestKnown = newestKnown;
  }
}

/** Migrations up to today's; refuses a database a newer version migrated. Returns the names it applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { unknown } = await migrationStatus(db);
  if (unknown.length > 0)
    throw new DatabaseNewerThanCodeError(
      unknown.map((m) => m.name),
      NEWEST_KNOWN_MIGRATION,
    );
  return report(migrator(db).migrateToLatest());
}

export interface MigrationStatus {
  /** Applied migrations this code knows, oldest first, with when they ran. */
  applied: Array<{ name: string; at: string }>;
  /** Known to this code, not yet applied. */
  pending: string[];
  /** Applied by a newer version: in the database's kysely_migration, unknown to this code. */
  unknown: Array<{ name: string; at: string }>;
  newestKnown: string;
}

/** What the database has applied against what this code knows; changes nothing (a new database has applied nothing). */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const rows = await appliedMigrations(db);
  const byName = new Map(rows.map((r) => [r.name, r.timestamp]));
  const known = KNOWN_MIGRATIONS;
  return {
    applied: known.filter((name) => byName.has(name)).map((name) => ({ name, at: byName.get(name)! })),
    pending: known.filter((name) => !byName.has(name)),
    unknown: rows
      .filter((r) => !(r.name in migrations))
      .map((r) => ({ name: r.name, at: r.timestamp }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    newestKnown: NEWEST_KNOWN_MIGRATION,
  };
}

/** Kysely's own table, read directly: its Migrator only lists the migrations the code has. */
async function appliedMigrations(db: Db): Promise<Array<{ name: string; timestamp: string }>> {
  const exists =
    db.getExecutor().adapter instanceof SqliteAdapter
      ? sql`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`
      : sql`select 1 from pg_catalog.pg_tables where schemaname = current_schema() and tablename = 'kysely_migration'`;
  if ((await exists.execute(db)).rows.length === 0) return [];
  const rows = await sql<{ name: string; timestamp: string }>`select name, ${sql.ref('timestamp')} from kysely_migration`.execute(db);
  return rows.rows;
}

/** Up to and including the named migration: a test of what a later one does to existing rows. */
export async function migrateTo(db: Db, name: string): Promise<void> {
  await report(migrator(db).migrateTo(name));
}

/**
 * Numbers are handed out to work done in parallel and land in any order (018 after 019): a
 * database that already ran a later one still takes an earlier newcomer. Each migration touches
 * only its own tables and columns, so their order between branches does not matter.
 */
function migrator(db: Db): Migrator {
  return new Migrator({ db, provider, allowUnorderedMigrations: true });
}

async function report(outcome: ReturnType<Migrator['migrateToLatest']>): Promise<string[]> {
  const { error, results } = await outcome;
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
