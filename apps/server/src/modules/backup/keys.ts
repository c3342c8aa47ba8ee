import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SIGNING_KEY_FILE } from '../catalog/signing-key.ts';
import { SSO_KEY_FILE } from '../sso/secret-box.ts';
import { BackupRefused } from './errors.ts';
import { describeFile, type BackupManifest } from './manifest.ts';

/** Where the keys go inside a backup directory. */
export const KEYS_DIR = 'keys';

/**
 * The files in DATA_DIR a restore needs besides the database: without the sealing key no staff
 * member's TOTP secret and no single-sign-on client secret opens; without the signing key the
 * catalogs no longer trust the punch-out links (their JWKS has a new kid).
 */
export const INSTALLATION_KEYS = [
  { name: SSO_KEY_FILE, what: 'the key that seals staff TOTP secrets and single-sign-on client secrets' },
  { name: SIGNING_KEY_FILE, what: 'the punch-out signing key' },
] as const;

export interface KeySource {
  signingKey: string | undefined;
  sealingKey: string | undefined;
  dataDir: string;
}

/** The variable a key comes from instead of DATA_DIR's file, if the configuration gives it. */
export function configuredKeyVariable(name: string, source: KeySource): string | undefined {
  if (name === SIGNING_KEY_FILE && source.signingKey !== undefined) return 'CATALOG_SIGNING_KEY';
  if (name === SSO_KEY_FILE && source.sealingKey !== undefined) return 'SSO_SECRET_KEY';
  return undefined;
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

async function readIfThere(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw new BackupRefused(`${path} cannot be read`);
  }
}

/**
 * Copies the keys of DATA_DIR into `<dir>/keys/` (0600). Returns them, and a line for each key
 * the backup cannot hold (configured in the environment, or not made yet).
 */
export async function copyKeys(dir: string, source: KeySource): Promise<Pick<BackupManifest, 'keys' | 'keysElsewhere'>> {
  const keys: BackupManifest['keys'] = [];
  const keysElsewhere: string[] = [];
  await mkdir(join(dir, KEYS_DIR), { mode: 0o700 });
  for (const key of INSTALLATION_KEYS) {
    const variable = configuredKeyVariable(key.name, source);
    if (variable !== undefined) {
      keysElsewhere.push(
        `${key.what} comes from ${variable} (or ${variable}_FILE): keep it with the configuration, this backup does not hold it`,
      );
      continue;
    }
    const from = join(source.dataDir, key.name);
    const content = await readIfThere(from);
    if (content === undefined) {
      keysElsewhere.push(
        key.name === SSO_KEY_FILE
          ? `${key.what} is not in ${source.dataDir} (${key.name}): if staff have enrolled, their second factors will not open after a restore`
          : `${key.what} is not in ${source.dataDir} yet (made on first use): the restored portal makes a new one`,
      );
      continue;
    }
    const path = `${KEYS_DIR}/${key.name}`;
    await writeFile(join(dir, path), content, { mode: 0o600, flag: 'wx' });
    keys.push({ name: key.name, what: key.what, ...(await describeFile(dir, path)) });
  }
  return { keys, keysElsewhere };
}

/** The lines a backup without its keys prints: where they are, and what it cannot restore. */
export function keysLeftOut(source: KeySource): string[] {
  return INSTALLATION_KEYS.map((key) => {
    const variable = configuredKeyVariable(key.name, source);
    return variable !== undefined
      ? `${key.what} comes from ${variable} (or ${variable}_FILE)`
      : `${key.what} is ${join(source.dataDir, key.name)}`;
  }).concat('this backup holds no keys: without them a restore cannot open the staff second factors or the single-sign-on secrets');
}

export interface KeyPlan {
  /** Keys to write into DATA_DIR (absent there, or different with --force). */
  write: Array<{ name: string; from: string; to: string; replacing: boolean }>;
  /** Already there with the same content. */
  same: string[];
}

/** What restoring the keys would do; refuses different keys already in DATA_DIR unless forced. Changes nothing. */
export async function planKeys(backupDir: string, manifest: BackupManifest, dataDir: string, force: boolean): Promise<KeyPlan> {
  const plan: KeyPlan = { write: [], same: [] };
  for (const key of manifest.keys) {
    const from = join(backupDir, key.path);
    const to = join(dataDir, key.name);
    const existing = await readIfThere(to);
    if (existing === undefined) plan.write.push({ name: key.name, from, to, replacing: false });
    else if (existing.equals(await readFile(from))) plan.same.push(key.name);
    else if (force) plan.write.push({ name: key.name, from, to, replacing: true });
    else
      throw new BackupRefused(
        `${to} holds a different key than the backup's: it belongs to another installation (add --force to replace it; the old one is kept beside it)`,
      );
  }
  return plan;
}

/** Writes the planned keys (0600); a replaced key is renamed aside, never lost. Returns the names of the ones kept aside. */
export async function writeKeys(plan: KeyPlan, dataDir: string, now: Date): Promise<string[]> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const keptAside: string[] = [];
  for (const key of plan.write) {
    if (key.replacing) {
      const aside = `${key.to}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
      await rename(key.to, aside);
      keptAside.push(aside);
    }
    // Through a temporary name: a key file is whole or absent, never half written.
    const partial = `${key.to}.restoring-${process.pid}`;
    await rm(partial, { force: true });
    await writeFile(partial, await readFile(key.from), { mode: 0o600, flag: 'wx' });
    await rename(partial, key.to);
  }
  return keptAside;
}
