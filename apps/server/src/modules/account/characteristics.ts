import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACTIVATION_LOCATORS, type ActivationField } from '@rewards/contract';
import type { Participant } from '../participants/tables.ts';
import { usernameKey } from '../participants/service.ts';

/**
 * The activation facts a client may ask for (clients.activation_fields), read from the stored
 * participant and normalised the way people type them: account numbers exactly (trimmed),
 * names ignoring case, accents and repeated spaces ("müller" matches "Muller"), e-mail
 * addresses and usernames ignoring case, dates of birth exactly (ISO YYYY-MM-DD, as the form sends
 * them). One entry per name of the contract's ACTIVATION_FIELDS, so the list cannot drift. A
 * stored null (no date of birth on file) never matches.
 */
const facts: Record<ActivationField, { stored: (p: Participant) => string | null; normalise: (value: string) => string }> = {
  accountNumber: { stored: (p) => p.account_number, normalise: (v) => v.trim() },
  lastName: { stored: (p) => p.last_name, normalise: normaliseName },
  firstName: { stored: (p) => p.first_name, normalise: normaliseName },
  emailAddress: { stored: (p) => p.email, normalise: (v) => v.trim().toLowerCase() },
  userName: { stored: (p) => p.username, normalise: usernameKey },
  dateOfBirth: { stored: (p) => p.date_of_birth, normalise: (v) => v.trim() },
};

const factOf = (field: string) => (Object.hasOwn(facts, field) ? facts[field as ActivationField] : undefined);

function normaliseName(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The facts that find the one participant to compare against: unique per client. */
export type Locator = (typeof ACTIVATION_LOCATORS)[number];

/** The first unique fact among the client's fields, with its normalised value; undefined if none. */
export function locatorOf(fields: string[], characteristics: Record<string, string>): { field: Locator; value: string } | undefined {
  for (const field of ACTIVATION_LOCATORS) {
    const given = characteristics[field];
    if (fields.includes(field) && given !== undefined) return { field, value: facts[field].normalise(given) };
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
 * against a decoy when there is no participant, the field is unknown or the participant has
 * no such fact on file (a null date of birth): the time taken tells neither which fact was
 * wrong, nor whether the account exists, nor whether it has the fact.
 */
export function characteristicsMatch(
  fields: string[],
  characteristics: Record<string, string>,
  participant: Participant | undefined,
): boolean {
  let allEqual = participant !== undefined && fields.length > 0;
  for (const field of fields) {
    const fact = factOf(field);
    const given = fact ? fact.normalise(characteristics[field] ?? '') : (characteristics[field] ?? '');
    const onFile = participant && fact ? fact.stored(participant) : null;
    const stored = onFile === null || !fact ? DECOY : fact.normalise(onFile);
    const equal = timingSafeEqual(digest(field, given), digest(field, stored));
    allEqual = allEqual && equal && onFile !== null;
  }
  return allEqual;
}
