import { createHash } from 'node:crypto';

/**
 * Characters codes are made of: no 0/O, 1/I/L, 2/Z, 5/S or 8/B, so a code read off a card or
 * a screen cannot be mistyped as another one.
 */
export const OTS_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';

/**
 * The form a code is stored and matched in: Unicode-compatible forms folded (full-width
 * letters, NFKC), upper case, and without white space, dashes of any kind, underscores, dots
 * or slashes, the separators people type or that a print run adds for reading.
 */
export function normaliseOtsCode(code: string): string {
  return code
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\p{Pd}_./]/gu, '');
}

/** SHA-256 hex of the normalised code: what the database keeps instead of the code. */
export function otsCodeHash(normalised: string): string {
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}

/** The last four characters, for operators and the participant's history. */
export function otsCodeHint(normalised: string): string {
  return normalised.slice(-4);
}
