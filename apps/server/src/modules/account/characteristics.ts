import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Participant } from '../../db/schema.ts';
import { usernameKey } from '../participants/store.ts';

/**
 * The activation facts a client may ask for (clients.activation_fields), read from the stored
 * participant and normalised the way people type them: account numbers exactly (trimmed),
 * names ignoring case, accents and repeated spaces ("müller" matches "Muller"), e-mail
 * addresses and usernames ignoring case.
 */
const facts: Record<string, { stored: (p: Participant) => string; normalise: (value: string) => string }> = {
  accountNumber: { stored: (p) => p.account_number, normalise: (v) => v.trim() },
  lastName: { stored: (p) => p.last_name, normalise: normaliseName },
  firstName: { stored: (p) => p.first_name, normalise: normaliseName },
  emailAddress: { stored: (p) => p.email, normalise: (v) => v.trim().toLowerCase() },
  userName: { stored: (p) => p.username, normalise: usernameKey },
};

function normaliseName(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The facts that find the one participant to compare against: unique per client. */
const LOCATORS = ['accountNumber', 'userName'] as const;
export type Locator = (typeof LOCATORS)[number];

/** The first unique fact among the client's fields, with its normalised value; undefined if none. */
export function locatorOf(fields: string[], characteristics: Record<string, string>): { field: Locator; value: string } | undefined {
  for (const field of LOCATORS) {
    const given = characteristics[field];
    if (fields.includes(field) && given !== undefined) return { field, value: facts[field]?.normalise(given) ?? given };
  }
  return undefined;
}

function digest(field: string, value: string): Buffer {
  return createHash('sha256').update(field).update('\0').update(value).digest();
}

/** Compared against when nobody was found, so a miss costs what a wrong fact costs. */
const DECOY = randomBytes(32).toString('base64url');

/**
 * True when every field's given value equals the participant's. Each field is compared as a
 * fixed-length digest with timingSafeEqual and every field is always compared (no early exit),
 * against a decoy when there is no participant or the field is unknown: the time taken tells
 * neither which fact was wrong nor whether the account exists.
 */
export function characteristicsMatch(fields: string[], characteristics: Record<string, string>, participant: Participant | undefined): boolean {
  let allEqual = participant !== undefined && fields.length > 0;
  for (const field of fields) {
    const fact = facts[field];
    const given = fact ? fact.normalise(characteristics[field] ?? '') : (characteristics[field] ?? '');
    const stored = participant && fact ? fact.normalise(fact.stored(participant)) : DECOY;
    const equal = timingSafeEqual(digest(field, given), digest(field, stored));
    allEqual = allEqual && equal && fact !== undefined;
  }
  return allEqual;
}
