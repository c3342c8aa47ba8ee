import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The installation's key for the providers' client secrets (mode 0600, beside the catalog key). */
export const SSO_KEY_FILE = 'sso-secret-key';

const VERSION = 'v1';

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function parseKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== 32) throw new Error(`The SSO secret key ${where} does not hold 32 bytes`);
  return key;
}

const keys = new Map<string, Promise<Buffer>>();

/**
 * SSO_SECRET_KEY (or its _FILE, a systemd credential): the installation's key given by the
 * configuration takes the place of DATA_DIR's file, which is then neither read nor made. Every
 * caller names the installation by its DATA_DIR, so the key is kept under that name.
 */
export function useConfiguredSecretKey(dataDir: string, base64url: string): void {
  keys.set(dataDir, Promise.resolve(parseKey(base64url, 'in SSO_SECRET_KEY')));
}

/** The key of DATA_DIR, created once (exclusively, so the CLI and the server agree on one key). */
export function secretKey(dataDir: string): Promise<Buffer> {
  let key = keys.get(dataDir);
  if (!key) {
    key = loadOrCreate(dataDir);
    keys.set(dataDir, key);
    key.catch(() => keys.delete(dataDir));
  }
  return key;
}

async function loadOrCreate(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, SSO_KEY_FILE);
  try {
    return parseKey(await readFile(file, 'utf8'), `file ${file}`);
  } catch (error) {
    if (!isCode(error, 'ENOENT'))
      throw error instanceof Error && error.message.startsWith('The SSO')
        ? error
        : new Error(`The SSO secret key file ${file} cannot be read`);
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw new Error(`The SSO secret key file ${file} cannot be written`);
  }
  return parseKey(await readFile(file, 'utf8'), `file ${file}`);
}

/** AES-256-GCM; the client id is authenticated with it, so a secret cannot be moved to another client's row. */
export function sealSecret(key: Buffer, clientId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(clientId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function openSecret(key: Buffer, clientId: string, sealed: string): string {
  const [version, data] = sealed.split('.');
  if (version !== VERSION || !data) throw new Error('Unknown SSO secret format');
  const raw = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(clientId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
