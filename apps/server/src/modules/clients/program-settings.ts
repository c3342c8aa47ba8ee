import { ACTIVATION_FIELDS, ACTIVATION_LOCATORS, EmailAddress, isActivationField, PasswordRules } from '@rewards/contract';
import type { ProgramSettings } from '@rewards/contract/console-clients';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { readClientCatalogs, setClientCatalog } from '../catalog/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { auditSettingsChange, changesOf } from './settings-audit.ts';
import { readClientColumns, updateClient } from './store.ts';

/*
 * A client's program rules (issue 20 §3, decision 065): password rules, activation fields, the travel
 * link, the support e-mail and the privacy notice version. The console's PUT calls setProgramSettings;
 * `rewards clients --password-rules --activation-fields` run checkPasswordRules and checkActivationFields.
 */

const noControl = (s: string) => !/\p{Cc}/u.test(s);

/** A catalog's address: an absolute http(s) URL, or a path on the portal's own origin. */
export const CatalogUrl = z
  .string()
  .trim()
  .max(2000, 'at most 2000 characters')
  .refine((value) => {
    if (value.startsWith('/')) return !value.startsWith('//') && noControl(value);
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL or a path starting with /');

/** The API accepts passwords of at most 200 characters, so no rule may ask for more. */
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_PRIVACY_NOTICE_VERSION = 1_000_000;

/** The rules within the API's limits: min 4 to 200, max 4 to 200, max not below min. */
export function checkPasswordRules(rules: PasswordRules): PasswordRules {
  const parsed = PasswordRules.safeParse(rules);
  if (!parsed.success) throw errors.validation('the password rules are minLength, maxLength and five switches');
  const { minLength, maxLength } = parsed.data;
  if (minLength < 4) throw errors.validation('min must be at least 4');
  if (minLength > MAX_PASSWORD_LENGTH) throw errors.validation(`min must be at most ${MAX_PASSWORD_LENGTH}`);
  if (maxLength < 4) throw errors.validation('max must be at least 4');
  if (maxLength > MAX_PASSWORD_LENGTH) throw errors.validation(`max must be at most ${MAX_PASSWORD_LENGTH}`);
  if (maxLength < minLength) throw errors.validation('max must not be below min');
  return parsed.data;
}

/**
 * The contract's ACTIVATION_FIELDS (decision 039), each once, one of them finding the account
 * (accountNumber or userName); or none (no self-activation).
 */
export function checkActivationFields(fields: readonly string[]): string[] {
  for (const field of fields)
    if (!isActivationField(field)) throw errors.validation(`unknown field "${field}" (use ${ACTIVATION_FIELDS.join(', ')}, or none)`);
  if (new Set(fields).size !== fields.length) throw errors.validation('a field is named twice');
  if (fields.length > 0 && !ACTIVATION_LOCATORS.some((locator) => fields.includes(locator)))
    throw errors.validation(`must include ${ACTIVATION_LOCATORS.join(' or ')}, which find the account`);
  return [...fields];
}

function checked<T>(schema: z.ZodType<T>, what: string, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw errors.validation(`${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** Every value checked; a validation error naming the first that is wrong. */
export function checkProgramSettings(change: ProgramSettings): ProgramSettings {
  const rules = (() => {
    try {
      return checkPasswordRules(change.passwordRules);
    } catch (error) {
      throw errors.validation(`password rules: ${error instanceof Error ? error.message : 'invalid'}`);
    }
  })();
  const fields = (() => {
    try {
      return checkActivationFields(change.activationFields);
    } catch (error) {
      throw errors.validation(`activation fields: ${error instanceof Error ? error.message : 'invalid'}`);
    }
  })();
  const travel =
    change.travelUrl === null || change.travelUrl.trim() === '' ? null : checked(CatalogUrl, 'the travel link', change.travelUrl);
  const email = change.supportEmail.trim() === '' ? '' : checked(EmailAddress, 'the support e-mail', change.supportEmail);
  const version = change.privacyNoticeVersion;
  if (!Number.isSafeInteger(version) || version < 0 || version > MAX_PRIVACY_NOTICE_VERSION)
    throw errors.validation(`the privacy notice version must be a whole number from 0 to ${MAX_PRIVACY_NOTICE_VERSION}`);
  return { passwordRules: rules, activationFields: fields, travelUrl: travel, supportEmail: email, privacyNoticeVersion: version };
}

/** As they are now (exact); 404 for an unknown client. */
export async function readProgramSettings(db: Db, clientId: string): Promise<ProgramSettings> {
  const row = await readClientColumns(db, clientId, ['password_rules', 'activation_fields', 'support_email', 'privacy_notice_version']);
  if (!row) throw errors.notFound();
  const travel = (await readClientCatalogs(db, clientId)).find((c) => c.kind === 'travel');
  return {
    passwordRules: PasswordRules.parse(JSON.parse(row.password_rules)),
    activationFields: z.array(z.string()).parse(JSON.parse(row.activation_fields)),
    travelUrl: travel?.url ?? null,
    supportEmail: row.support_email,
    privacyNoticeVersion: row.privacy_notice_version,
  };
}

const KEYS = ['passwordRules', 'activationFields', 'travelUrl', 'supportEmail', 'privacyNoticeVersion'] as const;

/**
 * Sets the whole set in one transaction with one audit entry `clients.settings` (each changed setting
 * from and to, the reason). An unchanged set writes nothing. A new privacy notice version asks every
 * participant to accept it again at their next visit (the portal compares versions).
 */
export async function setProgramSettings(
  db: Db,
  actor: Actor,
  clientId: string,
  change: ProgramSettings,
  reason?: string,
): Promise<{ to: ProgramSettings; auditId: string | null }> {
  const to = checkProgramSettings(change);
  return db.transaction().execute(async (trx) => {
    const from = await readProgramSettings(trx, clientId);
    const changed = KEYS.filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key]));
    if (changed.length === 0) return { to, auditId: null };
    await updateClient(trx, clientId, {
      password_rules: JSON.stringify(to.passwordRules),
      activation_fields: JSON.stringify(to.activationFields),
      support_email: to.supportEmail,
      privacy_notice_version: to.privacyNoticeVersion,
    });
    if (changed.includes('travelUrl'))
      await setClientCatalog(trx, clientId, 'travel', to.travelUrl === null ? null : { url: to.travelUrl, partnerId: null });
    const auditId = await auditSettingsChange(trx, actor, clientId, changesOf(changed, from, to), reason);
    return { to, auditId };
  });
}
