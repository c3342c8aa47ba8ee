// The facts a client may ask for at first-time activation (decision 039). Zod-free: the web
// imports it, so the form and the server can never disagree on the list.

/**
 * Every activation field the portal knows, in the order an operator usually lists them. A
 * client's `clientBranding.activationFields` is a subset (set with `rewards clients update
 * --activation-fields`); the server compares each against the stored participant, the web
 * labels and types each in the page's language.
 */
export const ACTIVATION_FIELDS = ['accountNumber', 'userName', 'lastName', 'firstName', 'emailAddress', 'dateOfBirth'] as const;
export type ActivationField = (typeof ACTIVATION_FIELDS)[number];

/** The fields that find the one participant to compare against (unique per client): a client's list names at least one. */
export const ACTIVATION_LOCATORS = ['accountNumber', 'userName'] as const satisfies readonly ActivationField[];

export function isActivationField(name: string): name is ActivationField {
  return (ACTIVATION_FIELDS as readonly string[]).includes(name);
}

/** The earliest date of birth taken anywhere (import, form): a typo guard, not a rule of the program. */
export const OLDEST_BIRTH_DATE = '1900-01-01';

/** `YYYY-MM-DD` naming a real day of the Gregorian calendar (no 30 February), or false. */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
