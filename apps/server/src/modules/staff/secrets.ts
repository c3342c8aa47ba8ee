import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { openSecret, sealSecret, secretKey } from '../sso/secret-box.ts';

/** What authenticator apps show above the codes. */
export const TOTP_ISSUER = 'Rewards console';
/** ±1 step of 30 s: a code typed just before or after its step still works (RFC 6238's advice). */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A single-use enrolment token: 256 random bits, URL-safe; only its hash is stored. */
export function newEnrolmentToken(): string {
  return randomBytes(32).toString('base64url');
}
export const hashEnrolmentToken = sha256;

/** A new TOTP secret of 160 bits (RFC 4226's recommended length), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function otpauthUri(secretBase32: string, email: string): string {
  return totp(secretBase32, email).toString();
}

/** The current code of a secret (the demo's README, tests). */
export function totpCode(secretBase32: string, now = new Date()): string {
  return totp(secretBase32, '').generate({ timestamp: now.getTime() });
}

/**
 * The time step a code belongs to, if it is right within ±1 step of now; undefined otherwise.
 * The caller refuses a step not later than the last one accepted, so no code works twice.
 */
export function totpStep(secretBase32: string, code: string, now = new Date()): number | undefined {
  const token = code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totp(secretBase32, '').validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: 30, timestamp: now.getTime() }) + delta;
}

/** The TOTP secret sealed with the installation's key, bound to its staff member's id. */
export async function sealTotpSecret(dataDir: string, staffId: string, secretBase32: string): Promise<string> {
  return sealSecret(await secretKey(dataDir), `staff-totp:${staffId}`, secretBase32);
}

export async function openTotpSecret(dataDir: string, staffId: string, sealed: string): Promise<string> {
  return openSecret(await secretKey(dataDir), `staff-totp:${staffId}`, sealed);
}

// No 0/o, 1/l/i: a code read off paper is typed right.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes of 10 characters (about 50 bits each), shown as xxxxx-xxxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code's stored hash: case, spaces and dashes do not matter; bound to its owner. */
export function hashRecoveryCode(staffId: string, code: string): string {
  return sha256(`${staffId}:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}
