import { LocaleCode } from '@rewards/contract';
import { MAX_LOCALES, type LocaleSetting, type LocaleSettings } from '@rewards/contract/console-clients';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { Actor } from '../participants/operator-service.ts';
import { mediaLabelForms } from './media-labels.ts';
import { auditSettingsChange } from './settings-audit.ts';
import { readClientColumns, readClientLocales, readMediaLabels, replaceClientLocales, replaceMediaLabels, updateClient } from './store.ts';

/*
 * A client's locales, default locale and media labels (issue 20 §3, decision 065): the console's
 * PUT through setLocaleSettings; `rewards clients --locale` reads its flag through localeSetting.
 */

/** en-us, fr_FR → en-US, fr-FR; anything that is not a language tag is a validation error. */
export function canonicalLocaleCode(value: string): string {
  const parsed = LocaleCode.safeParse(value.trim().replace(/_/g, '-'));
  try {
    if (parsed.success) return Intl.getCanonicalLocales(parsed.data)[0] ?? parsed.data;
  } catch {
    // Not a tag Intl knows: refused below.
  }
  throw errors.validation(`"${value}" is not a language tag such as fr-FR`);
}

/** Node 24's Intl.Locale#getTextInfo (not yet in TypeScript's lib); ltr if it is missing. */
function textDirection(locale: Intl.Locale): 'ltr' | 'rtl' {
  const withInfo = locale as Intl.Locale & { getTextInfo?: () => { direction?: string } };
  return withInfo.getTextInfo?.().direction === 'rtl' ? 'rtl' : 'ltr';
}

/** A locale as offered: direction and name default to what Intl knows of the language (Français, العربية). */
export function localeSetting(rawCode: string, dir?: string, rawName?: string): LocaleSetting {
  const code = canonicalLocaleCode(rawCode);
  const intl = new Intl.Locale(code);
  if (dir !== undefined && dir !== '' && dir !== 'ltr' && dir !== 'rtl') throw errors.validation(`the direction of ${code} is ltr or rtl`);
  const language = new Intl.DisplayNames([code], { type: 'language' }).of(intl.language) ?? code;
  const name = rawName?.trim() || language.charAt(0).toLocaleUpperCase(code) + language.slice(1);
  if (name.length > 60 || /\p{Cc}/u.test(name))
    throw errors.validation(`the name of ${code} is at most 60 characters, no control characters`);
  return { code, dir: dir === 'ltr' || dir === 'rtl' ? dir : textDirection(intl), name };
}

/** What the console sends: the whole list, the default, and the labels it names. */
export interface LocaleChange {
  locales: Array<{ code: string; dir?: string; name?: string }>;
  defaultLocale: string;
  mediaLabels: Array<{ locale: string; label: string | Readonly<Record<string, string>> }>;
}

/** The settings as they are now (exact); 404 for an unknown client. */
export async function readLocaleSettings(db: Db, clientId: string): Promise<LocaleSettings> {
  const client = await readClientColumns(db, clientId, ['default_locale']);
  if (!client) throw errors.notFound();
  const [locales, labels] = await Promise.all([readClientLocales(db, clientId), readMediaLabels(db, clientId)]);
  return {
    locales: locales.map((l) => ({ code: l.code, dir: l.dir === 'rtl' ? 'rtl' : 'ltr', name: l.name })),
    defaultLocale: client.default_locale,
    mediaLabels: labels.map((l) => ({ locale: l.locale, forms: JSON.parse(l.forms) as Record<string, string> })),
  };
}

/** The settings after `change`, every rule checked (pure apart from `current`); a validation error otherwise. */
export function mergeLocaleSettings(current: LocaleSettings, change: LocaleChange): LocaleSettings {
  if (change.locales.length === 0 || change.locales.length > MAX_LOCALES)
    throw errors.validation(`a client offers 1 to ${MAX_LOCALES} locales`);
  const locales = change.locales.map((l) => localeSetting(l.code, l.dir, l.name));
  const codes = locales.map((l) => l.code);
  const twice = codes.find((code, i) => codes.indexOf(code) !== i);
  if (twice) throw errors.validation(`${twice} is given twice`);
  const defaultLocale = canonicalLocaleCode(change.defaultLocale);
  if (!codes.includes(defaultLocale))
    throw errors.validation(`the default locale ${defaultLocale} is not one of the locales (${codes.join(', ')})`);
  const labels = new Map(current.mediaLabels.filter((l) => codes.includes(l.locale)).map((l) => [l.locale, l.forms]));
  const given = new Set<string>();
  for (const { locale: raw, label } of change.mediaLabels) {
    const locale = canonicalLocaleCode(raw);
    if (!codes.includes(locale)) throw errors.validation(`the media label's ${locale} is not one of the locales (${codes.join(', ')})`);
    if (given.has(locale)) throw errors.validation(`the media label of ${locale} is given twice`);
    given.add(locale);
    try {
      labels.set(locale, mediaLabelForms(locale, label));
    } catch (error) {
      if (error instanceof Error) throw errors.validation(`the media label of ${locale}: ${error.message}`);
      throw error;
    }
  }
  const mediaLabels = [...labels].map(([locale, forms]) => ({ locale, forms })).sort((a, b) => (a.locale < b.locale ? -1 : 1));
  return { locales, defaultLocale, mediaLabels };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Sets the list, the default and the labels in one transaction with one audit entry
 * `clients.settings` (each changed part from and to, the reason). An unchanged set writes nothing.
 * The portal reads them through the configuration cache: they show within CLIENT_CACHE_SECONDS.
 */
export async function setLocaleSettings(
  db: Db,
  actor: Actor,
  clientId: string,
  change: LocaleChange,
  reason?: string,
): Promise<{ to: LocaleSettings; auditId: string | null }> {
  return db.transaction().execute(async (trx) => {
    const from = await readLocaleSettings(trx, clientId);
    const to = mergeLocaleSettings(from, change);
    const details: Record<string, unknown> = {};
    if (!same(from.locales, to.locales)) {
      details.locales = { from: from.locales, to: to.locales };
      await replaceClientLocales(trx, clientId, to.locales);
    }
    if (from.defaultLocale !== to.defaultLocale) {
      details.defaultLocale = { from: from.defaultLocale, to: to.defaultLocale };
      await updateClient(trx, clientId, { default_locale: to.defaultLocale });
    }
    if (!same(from.mediaLabels, to.mediaLabels)) {
      details.mediaLabels = { from: from.mediaLabels, to: to.mediaLabels };
      await replaceMediaLabels(
        trx,
        clientId,
        to.mediaLabels.map((l) => ({ locale: l.locale, forms: JSON.stringify(l.forms) })),
      );
    }
    if (Object.keys(details).length === 0) return { to, auditId: null };
    const auditId = await auditSettingsChange(trx, actor, clientId, details, reason);
    return { to, auditId };
  });
}
