import { errors } from './api-error.ts';

/**
 * Keyset paging's cursor (participant search, the console's statement and audit trail): the
 * last row's key values, opaque to callers: base64url of a JSON array.
 */
export function encodePageCursor(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

type Part = 'string' | 'number';
type Values<S extends readonly Part[]> = { -readonly [K in keyof S]: S[K] extends 'number' ? number : string };

/**
 * The values of a cursor of the given shape, or 400: a caller may send anything back. Strings are
 * well-formed, without control characters and at most `maxLength` long; numbers whole and not
 * negative. What a value means is the caller's to check.
 */
export function decodePageCursor<const S extends readonly Part[]>(text: string, shape: S, maxLength = 64): Values<S> {
  const invalid = () => errors.validation('The page cursor is not valid');
  if (text.length > 2_000 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== shape.length) throw invalid();
  const fits = (part: unknown, kind: Part) =>
    kind === 'number'
      ? Number.isSafeInteger(part) && (part as number) >= 0
      : typeof part === 'string' && part.length <= maxLength && part.isWellFormed() && !/\p{Cc}/u.test(part);
  if (!value.every((part, i) => fits(part, shape[i]!))) throw invalid();
  return value as Values<S>;
}
