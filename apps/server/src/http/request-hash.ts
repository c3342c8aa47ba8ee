import { createHash } from 'node:crypto';

/** JSON with the keys of every object sorted: the same fields write the same text, whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * What tells a retry from another request under one idempotency key (the program API's
 * externalId, an event's id): the SHA-256 of the request's fields as the service normalised them.
 */
export function requestHash(fields: Record<string, unknown>): string {
  return createHash('sha256').update(canonical(fields)).digest('hex');
}
