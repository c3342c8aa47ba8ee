import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe (43 characters): a launch token cannot be guessed. */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens and key secrets are high-entropy: a plain sha-256 is enough, and only it is stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** An admin key, `rk_<id>_<secret>`: the id (hex) finds the row, the secret is compared in constant time. */
export function newAdminKey(): { id: string; key: string; hash: string } {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `rk_${id}_${secret}`, hash: sha256(secret) };
}

const ADMIN_KEY_PATTERN = /^rk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export function parseAdminKey(key: string): { id: string; secret: string } | undefined {
  const match = ADMIN_KEY_PATTERN.exec(key);
  return match ? { id: match[1] as string, secret: match[2] as string } : undefined;
}

/** Compares two hex hashes without leaking where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
