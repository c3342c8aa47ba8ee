import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupRefused } from './errors.ts';

/** The backup's table of contents, written last: a directory without it is not a backup (docs/decisions/080). */
export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'rewards-backup/1';

export interface BackupFile {
  /** Relative to the backup directory. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  engine: 'sqlite' | 'postgres';
  /** When the snapshot was taken: every commit acknowledged before it is in the backup. */
  snapshotAt: string;
  finishedAt: string;
  /** The backup's own kysely_migration: its newest migration, and all of them. */
  schema: { lastMigration: string | null; migrations: string[] };
  /** database.sqlite (a page copy) or database.dump (pg_dump's custom format), and how it was checked. */
  database: BackupFile & { check: string };
  /** The installation's keys, copied from DATA_DIR. */
  keys: Array<BackupFile & { name: string; what: string }>;
  /** Keys the backup does not hold, and where they are. */
  keysElsewhere: string[];
}

export async function describeFile(dir: string, path: string): Promise<BackupFile> {
  const full = join(dir, path);
  return { path, bytes: (await stat(full)).size, sha256: await sha256Of(full) };
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

/** The manifest of a backup directory, every file it lists checked against its size and sha256. */
export async function readCheckedManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupRefused(`${dir} is not a backup: it has no readable ${MANIFEST_FILE} (a backup still being written has none yet)`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupRefused(`${dir}: unknown backup format "${String(manifest.format)}"`);
  for (const file of [manifest.database, ...manifest.keys]) {
    // A path that leaves the directory is not one this command wrote.
    if (file.path.startsWith('/') || file.path.split('/').includes('..')) throw new BackupRefused(`${dir}: bad path ${file.path}`);
    let actual: BackupFile;
    try {
      actual = await describeFile(dir, file.path);
    } catch {
      throw new BackupRefused(`the backup is incomplete: ${file.path} is missing`);
    }
    if (actual.bytes !== file.bytes || actual.sha256 !== file.sha256)
      throw new BackupRefused(`the backup is damaged: ${file.path} does not match its manifest (size or sha256)`);
  }
  return manifest;
}
