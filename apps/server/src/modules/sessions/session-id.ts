import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash is stored: a copy of the database does not hold a usable session. */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}
