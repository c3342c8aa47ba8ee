import { EmailAddress, type PasswordRules } from '@rewards/contract';
import { z } from 'zod';
import { ApiError } from '../../http/api-error.ts';
import { canonicalLocaleCode, localeSetting } from '../../modules/clients/locale-settings.ts';
import { checkActivationFields, checkPasswordRules } from '../../modules/clients/program-settings.ts';
import type { LocaleSetting } from '@rewards/contract/console-clients';
import { mediaLabelForms, pluralCategories, type PluralFormsSetting } from '../../modules/clients/media-labels.ts';
import { CliError } from '../cli-context.ts';

/*
 * The client settings an operator sets with `rewards clients create|update`, parsed from their
 * flags into checked values. Every check here needs only the flag itself; the ones that need
 * the database (a host owned by another client, the default locale among the locales) are the
 * module's, inside the change's transaction (modules/clients/client-change.ts).
 */

/** Runs a zod schema over a flag's value; a failure is one line naming the flag. */
export function parseFlag<T>(flag: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new CliError(`${flag}: ${issue?.message ?? 'invalid value'}`);
}

export const ClientId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,39}$/, 'a client id is 2 to 40 lower-case letters, digits or hyphens, starting with a letter or digit');

// One rule for the command and the console (packages/contract/src/console-clients.ts).
export { BrandColor, ClientName } from '@rewards/contract/console-clients';

/** An origin as an operator writes it (https://rewards.example.com, 127.0.0.2:3000, a bare host name), reduced to the host name the portal looks up. */
export const OriginHost = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(300, 'at most 300 characters')
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value.includes('://') ? value : `http://${value}`);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin such as https://rewards.example.com` });
      return z.NEVER;
    }
    if (
      !['http:', 'https:'].includes(url.protocol) ||
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      (url.pathname !== '/' && url.pathname !== '')
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not an origin such as https://rewards.example.com (no path, query or credentials)`,
      });
      return z.NEVER;
    }
    return url.hostname.toLowerCase();
  });

/**
 * The portal's address (docs/decisions/041): the http(s) origin every link in the client's mails
 * starts with. Scheme, host and port only; kept as the URL's origin (lower case, no default port).
 */
export const PortalUrl = z
  .string()
  .trim()
  .max(300, 'at most 300 characters')
  .transform((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !['http:', 'https:'].includes(url.protocol) ||
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      url.pathname !== '/' ||
      /[?#]/.test(value)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not an origin such as https://rewards.example.com (http or https, no path, query or credentials)`,
      });
      return z.NEVER;
    }
    return url.origin;
  });

// A new client's portal address when --portal-url is not given: the module's rule (decision 089).
export { defaultPortalUrl } from '../../modules/clients/client-change.ts';

// One rule for the command and the console (modules/clients/locale-settings.ts).
export { LocaleSetting } from '@rewards/contract/console-clients';

/** `code[:dir[:name]]`: direction and name default to what Intl knows of the language (Français, العربية). */
export function parseLocale(flag: string, value: string): LocaleSetting {
  const [rawCode = '', rawDir, ...rest] = value.split(':');
  return asFlag(flag, () => localeSetting(rawCode, rawDir, rest.length > 0 ? rest.join(':') : undefined));
}

/** en-us, fr_FR → en-US, fr-FR; anything that is not a language tag is refused. */
export function canonicalLocale(flag: string, value: string): string {
  return asFlag(flag, () => canonicalLocaleCode(value));
}

/** The module's validation error as the flag's one line. */
function asFlag<T>(flag: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`${flag}: ${error.message}`);
    throw error;
  }
}

export type { PluralCategory, PluralFormsSetting } from '../../modules/clients/media-labels.ts';

/**
 * `locale:one=text;other=text` (the media label's plural forms in one locale: only the categories
 * Intl.PluralRules knows for that locale, `other` required) or `locale:text` (one text for every
 * form). The rule is the module's (modules/clients/media-labels.ts), which the console uses too.
 */
export function parseMediaLabel(flag: string, value: string): { locale: string; forms: PluralFormsSetting } {
  const colon = value.indexOf(':');
  if (colon < 1) throw new CliError(`${flag}: write it as locale:one=Point;other=Points, or locale:Points for every form`);
  const locale = canonicalLocale(flag, value.slice(0, colon));
  const rest = value.slice(colon + 1);
  let label: string | Record<string, string> = rest;
  if (rest.includes('=')) {
    const forms: Record<string, string> = {};
    for (const part of rest.split(';')) {
      if (part.trim() === '') continue;
      const equals = part.indexOf('=');
      const category = equals < 1 ? part.trim() : part.slice(0, equals).trim();
      if (equals < 1)
        throw new CliError(`${flag}: "${category}" is not a plural form of ${locale} (use ${pluralCategories(locale).join(', ')})`);
      if (category in forms) throw new CliError(`${flag}: the form ${category} is given twice`);
      forms[category] = part.slice(equals + 1);
    }
    label = forms;
  }
  try {
    return { locale, forms: mediaLabelForms(locale, label) };
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`${flag}: ${error.message}`);
    throw error;
  }
}

// The bound and the checks are the module's (the console's PUT runs the same).
export { MAX_PASSWORD_LENGTH } from '../../modules/clients/program-settings.ts';

const RULE_WORDS = {
  upper: 'requireUpper',
  lower: 'requireLower',
  digit: 'requireDigit',
  symbol: 'requireSymbol',
  'not-username': 'notUsername',
} as const;

/** `min=10,max=128,upper,lower,digit,symbol,not-username`: the whole rule set; a rule not named is off. */
export function parsePasswordRules(flag: string, value: string): PasswordRules {
  const rules: Record<string, number | boolean> = {
    minLength: 8,
    maxLength: 128,
    requireUpper: false,
    requireLower: false,
    requireDigit: false,
    requireSymbol: false,
    notUsername: false,
  };
  for (const word of value
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    const [name = '', number] = word.split('=');
    if (name === 'min' || name === 'max') {
      if (number === undefined || !/^\d{1,4}$/.test(number)) throw new CliError(`${flag}: ${name} needs a number, e.g. ${name}=10`);
      rules[name === 'min' ? 'minLength' : 'maxLength'] = Number(number);
    } else if (name in RULE_WORDS && number === undefined) {
      rules[RULE_WORDS[name as keyof typeof RULE_WORDS]] = true;
    } else {
      throw new CliError(`${flag}: unknown rule "${word}" (use min=N, max=N, ${Object.keys(RULE_WORDS).join(', ')})`);
    }
  }
  return asFlag(flag, () => checkPasswordRules(rules as PasswordRules));
}

/**
 * A comma list of the contract's ACTIVATION_FIELDS (the ones the server compares and the web
 * translates, decision 039), or `none` (no self-activation). One of them must find the account:
 * accountNumber or userName.
 */
export function parseActivationFields(flag: string, value: string): string[] {
  if (value.trim() === 'none') return [];
  const fields = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return asFlag(flag, () => checkActivationFields(fields));
}

export { CatalogUrl } from '../../modules/clients/program-settings.ts';

export { PartnerId } from '../../modules/clients/catalog-settings.ts';

export const SupportEmail = z.union([z.literal('none').transform(() => ''), EmailAddress]);

export const PrivacyNoticeVersion = z.coerce
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(1_000_000, 'at most 1000000');

export const OFFERINGS = ['merchandise', 'experiences'] as const;
export type Offering = (typeof OFFERINGS)[number];
