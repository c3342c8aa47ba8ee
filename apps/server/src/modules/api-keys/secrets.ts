import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@rewards/contract';
import { sha256 } from '../launch-as/secrets.ts';

export { sameHash, sha256 } from '../launch-as/secrets.ts';

/**
 * A new key, `rk_live_<12 hex id>_<43 base64url secret>`: the id finds the row, the secret (256
 * random bits) is compared by its sha-256 in constant time. Enough entropy that a plain hash is
 * safe to keep (nobody can guess their way back), and fast enough to check on every call.
 */
export function newApiKey(): { id: string; key: string; prefix: string; hash: string } {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const prefix = `${API_KEY_PREFIX}${id}`;
  return { id, prefix, key: `${prefix}_${secret}`, hash: sha256(secret) };
}

const API_KEY_PATTERN = /^rk_live_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export function parseApiKey(key: string): { id: string; secret: string } | undefined {
  const match = API_KEY_PATTERN.exec(key);
  return match ? { id: match[1] as string, secret: match[2] as string } : undefined;
}

/** The key a bearer header carries, or undefined (the scheme's name is case-insensitive, RFC 9110 §11.1). */
export function bearerOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}
