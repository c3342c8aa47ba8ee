import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

/** The key that signs punch-out links, and what may be published of it. */
export interface SigningKey {
  kid: string;
  alg: 'EdDSA' | 'ES256';
  privateKey: CryptoKey;
  /** Public parts only, with kid, alg and use: what JWKS_PATH serves. */
  publicJwk: JWK;
}

/** The generated key's file in the data directory (mode 0600). */
export const SIGNING_KEY_FILE = 'catalog-signing-key.json';

function algorithmOf(jwk: JWK): SigningKey['alg'] {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  throw new Error('The catalog signing key must be an Ed25519 (OKP) or P-256 (EC) private JWK');
}

/** The public half of an OKP or EC JWK: never d, whatever else the configured JWK carries. */
function publicPartsOf(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, ...(y ? { y } : {}) };
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  const alg = algorithmOf(jwk);
  if (typeof jwk.d !== 'string') throw new Error('The catalog signing key must be a private JWK (with d)');
  const imported = await importJWK(jwk, alg);
  if (imported instanceof Uint8Array) throw new Error('The catalog signing key must be asymmetric');
  const publicParts = publicPartsOf(jwk);
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicParts));
  return { kid, alg, privateKey: imported, publicJwk: { ...publicParts, kid, alg, use: 'sig' } };
}

async function generatePrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(publicPartsOf(jwk)) };
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** The key file of the data directory, created once (exclusively, so two starts agree on one key). */
async function keptPrivateJwk(dataDir: string): Promise<JWK> {
  const file = join(dataDir, SIGNING_KEY_FILE);
  const read = async () => JSON.parse(await readFile(file, 'utf8')) as JWK;
  try {
    return await read();
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw new Error(`The catalog signing key file ${file} cannot be read`);
  }
  await mkdir(dataDir, { recursive: true });
  const jwk = await generatePrivateJwk();
  try {
    await writeFile(file, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
    return jwk;
  } catch (error) {
    if (isCode(error, 'EEXIST')) return read();
    throw new Error(`The catalog signing key file ${file} cannot be written`);
  }
}

/**
 * The installation's signing key, loaded on first use (so apps that never sign, such as other
 * modules' tests, never touch the data directory): the configured JWK, else the kept one.
 */
export function signingKeySource(config: { signingKey: string | undefined; dataDir: string }): () => Promise<SigningKey> {
  let pending: Promise<SigningKey> | undefined;
  return () => {
    pending ??= (async () =>
      fromPrivateJwk(config.signingKey ? (JSON.parse(config.signingKey) as JWK) : await keptPrivateJwk(config.dataDir)))();
    // A failure (unreadable file) is retried by the next request rather than remembered.
    pending.catch(() => {
      pending = undefined;
    });
    return pending;
  };
}

const sources = new WeakMap<object, () => Promise<SigningKey>>();

/** One key source per app configuration, shared by the signing route and the JWKS route. */
export function signingKeyFor(config: { catalog: { signingKey: string | undefined; dataDir: string } }): () => Promise<SigningKey> {
  let source = sources.get(config);
  if (!source) {
    source = signingKeySource(config.catalog);
    sources.set(config, source);
  }
  return source;
}
