import { createHash, randomBytes } from 'node:crypto';

/** A reset link's secret: 256 random bits, base64url (43 characters). Never stored. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored and looked up instead of the secret. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The link a reset mail carries, on the client's portal address (never the request's origin). */
export function resetLink(origin: string, token: string): string {
  return `${origin}/reset-password?passwordGuid=${token}`;
}
