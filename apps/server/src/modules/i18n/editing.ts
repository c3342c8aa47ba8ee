import {
  MAX_TRANSLATION_ROWS,
  type BundleFormat,
  type ExportScope,
  type ImportBundleReply,
  type TextSource,
  type TranslationReply,
  type TranslationRow,
  type TranslationsQuery,
  type TranslationsView,
} from '@rewards/contract/console-translations';
import type { Db } from '../../db/database.ts';
import { clearReadCache } from '../../db/read-cache.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import { clientLocales, findClient } from '../clients/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { formatBundle, placeholders } from './bundle-format.ts';
import { clientTranslationMap, deleteClientTranslation, updateClientTranslation, upsertClientTranslations } from './store.ts';

// What `rewards clients show` counts (decision 053: others call the service, never the store).
export { countClientTranslations } from './store.ts';

/**
 * A client's wording per locale, for the console and `rewards clients translations import`
 * alike (issue 20 §4, docs/decisions/066): what a locale lacks against the default locale, its
 * placeholder mismatches, one key's edit, a bundle's import (first what would change, then the
 * change) and export. Every change is one transaction with its audit entry; then this process's
 * configuration cache is emptied, so its portal shows the change at once and every other process
 * within CLIENT_CACHE_SECONDS (bundles are configuration reads, decision 014).
 */

/** The client and its locales (404 for an unknown client). */
export async function clientWithLocales(db: Db, clientId: string) {
  const client = await findClient(db, clientId);
  if (!client) throw errors.notFound();
  const locales = (await clientLocales(db, clientId)).map(({ code, name }) => ({ code, name }));
  return { client, locales };
}

/** The client and the locale, canonical (fr_fr → fr-FR), which must be one of the client's. */
export async function clientLocale(db: Db, clientId: string, rawLocale: string) {
  const { client, locales } = await clientWithLocales(db, clientId);
  let locale = rawLocale.trim().replace(/_/g, '-');
  try {
    locale = Intl.getCanonicalLocales(locale)[0] ?? locale;
  } catch {
    throw errors.validation(`"${rawLocale.slice(0, 40)}" is not a language tag such as fr-FR`);
  }
  if (!locales.some((l) => l.code === locale))
    throw errors.validation(`${locale} is not one of ${client.id}'s locales (${locales.map((l) => l.code).join(', ')})`);
  return { client, locale, locales };
}

/** Everything a locale's rows are computed from, read once. */
interface Sources {
  defaultLocale: string;
  /** The default locale's texts as the portal shows them: English floor, shipped, the client's own. */
  reference: Map<string, string>;
  ownDefault: Map<string, string>;
  own: Map<string, string>;
  shipped: Readonly<Record<string, string>>;
}

async function readSources(db: Db, clientId: string, defaultLocale: string, locale: string): Promise<Sources> {
  const ownDefault = await clientTranslationMap(db, clientId, defaultLocale);
  const own = locale === defaultLocale ? ownDefault : await clientTranslationMap(db, clientId, locale);
  const reference = new Map<string, string>(Object.entries({ ...baseBundles.get(FALLBACK_LOCALE), ...baseBundles.get(defaultLocale) }));
  for (const [key, text] of ownDefault) reference.set(key, text);
  return { defaultLocale, reference, ownDefault, own, shipped: baseBundles.get(locale) ?? {} };
}

function rowOf(s: Sources, locale: string, key: string): TranslationRow {
  const reference = s.reference.get(key) ?? null;
  const own = s.own.get(key);
  const shipped = Object.hasOwn(s.shipped, key) ? s.shipped[key] : undefined;
  const text = own ?? shipped ?? null;
  const source: TextSource = own !== undefined ? 'client' : shipped !== undefined ? 'shipped' : 'none';
  const state =
    text === null ? 'missing' : locale !== s.defaultLocale && own === undefined && s.ownDefault.has(key) ? 'untranslated' : 'ok';
  let mismatch: TranslationRow['placeholders'] = null;
  if (reference !== null && text !== null) {
    const expected = placeholders(reference);
    const found = placeholders(text);
    if (expected.join() !== found.join()) mismatch = { expected, found };
  }
  return { key, reference, text, source, state, placeholders: mismatch };
}

/** The keys of a locale: the default locale's and any the client has of its own in this one. */
function keysOf(s: Sources): string[] {
  return [...new Set([...s.reference.keys(), ...s.own.keys()])].sort();
}

/** GET translations: the locale's rows against the default locale, filtered and searched, with the counts of all. */
export async function translationsView(db: Db, clientId: string, rawLocale: string, query: TranslationsQuery): Promise<TranslationsView> {
  const { client, locale, locales } = await clientLocale(db, clientId, rawLocale);
  const sources = await readSources(db, clientId, client.default_locale, locale);
  const all = keysOf(sources).map((key) => rowOf(sources, locale, key));
  const q = (query.q ?? '').trim().toLowerCase();
  const filter = query.filter ?? 'all';
  const kept = all.filter((row) => {
    if (filter === 'toTranslate' && row.state === 'ok') return false;
    if (filter === 'mismatch' && row.placeholders === null) return false;
    if (filter === 'own' && row.source !== 'client') return false;
    if (q === '') return true;
    return [row.key, row.reference ?? '', row.text ?? ''].some((value) => value.toLowerCase().includes(q));
  });
  return {
    locale,
    defaultLocale: client.default_locale,
    locales,
    counts: {
      keys: all.length,
      missing: all.filter((r) => r.state === 'missing').length,
      untranslated: all.filter((r) => r.state === 'untranslated').length,
      mismatches: all.filter((r) => r.placeholders !== null).length,
      own: all.filter((r) => r.source === 'client').length,
    },
    rows: kept.slice(0, MAX_TRANSLATION_ROWS),
    truncated: kept.length > MAX_TRANSLATION_ROWS,
  };
}

/** A text using a placeholder the default locale's text lacks would show as "{name}": refused. */
function unknownPlaceholders(reference: string | undefined, text: string): string[] {
  if (reference === undefined) return [];
  const expected = placeholders(reference);
  return placeholders(text).filter((p) => !expected.includes(p));
}

/** PUT one key: the client's own text of it in the locale, with a reason; audited with before and after. */
export async function setTranslation(
  db: Db,
  actor: Actor,
  change: { clientId: string; locale: string; key: string; text: string; reason: string },
  now = new Date(),
): Promise<TranslationReply> {
  const { client, locale } = await clientLocale(db, change.clientId, change.locale);
  const text = change.text;
  if (text.trim() === '') throw errors.validation('The text is empty; write the text the portal should show');
  const result = await db.transaction().execute(async (trx) => {
    const sources = await readSources(trx, client.id, client.default_locale, locale);
    if (!sources.reference.has(change.key) && !sources.own.has(change.key))
      throw errors.validation(`${change.key} is not a key of ${client.default_locale}, the default locale`);
    const unknown = unknownPlaceholders(sources.reference.get(change.key), text);
    if (unknown.length > 0)
      throw errors.validation(
        `{${unknown.join('}, {')}} is not a placeholder of ${change.key} (${client.default_locale} has ${describePlaceholders(sources.reference.get(change.key) ?? '')})`,
      );
    const before = rowOf(sources, locale, change.key);
    if (sources.own.get(change.key) === text) return { row: before, auditId: null };
    if (sources.own.has(change.key)) await updateClientTranslation(trx, client.id, locale, change.key, text);
    else await upsertClientTranslations(trx, client.id, locale, [[change.key, text]]);
    sources.own.set(change.key, text);
    if (locale === client.default_locale) sources.reference.set(change.key, text);
    const auditId = await recordAudit(
      trx,
      {
        clientId: client.id,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'clients.translations.edit',
        subject: change.key,
        details: { locale, key: change.key, from: before.text, fromSource: before.source, to: text, reason: change.reason },
        origin: actor.origin,
      },
      now,
    );
    return { row: rowOf(sources, locale, change.key), auditId };
  });
  if (result.auditId) clearReadCache(db);
  return result;
}

/**
 * DELETE one key: the client's own text of it in the locale goes, the shipped text (or the
 * fallback) shows again; audited with before and after. Nothing to remove: nothing written.
 */
export async function removeTranslation(
  db: Db,
  actor: Actor,
  change: { clientId: string; locale: string; key: string; reason: string },
  now = new Date(),
): Promise<TranslationReply> {
  const { client, locale } = await clientLocale(db, change.clientId, change.locale);
  const result = await db.transaction().execute(async (trx) => {
    const sources = await readSources(trx, client.id, client.default_locale, locale);
    const before = sources.own.get(change.key);
    if (before === undefined) return { row: rowOf(sources, locale, change.key), auditId: null };
    await deleteClientTranslation(trx, client.id, locale, change.key);
    sources.own.delete(change.key);
    if (locale === client.default_locale) {
      const shipped = { ...baseBundles.get(FALLBACK_LOCALE), ...baseBundles.get(locale) }[change.key];
      if (shipped === undefined) sources.reference.delete(change.key);
      else sources.reference.set(change.key, shipped);
    }
    const row = rowOf(sources, locale, change.key);
    const auditId = await recordAudit(
      trx,
      {
        clientId: client.id,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'clients.translations.remove',
        subject: change.key,
        details: { locale, key: change.key, from: before, to: row.text, toSource: row.source, reason: change.reason },
        origin: actor.origin,
      },
      now,
    );
    return { row, auditId };
  });
  if (result.auditId) clearReadCache(db);
  return result;
}

const describePlaceholders = (text: string) => {
  const found = placeholders(text);
  return found.length === 0 ? 'none' : `{${found.join('}, {')}}`;
};

export interface ImportOutcome extends ImportBundleReply {
  /** Every placeholder mismatch in the file's order, refused or imported (the command prints them so). */
  mismatches: Array<{ key: string; expected: string[]; found: string[]; imported: boolean }>;
}

/**
 * A bundle's texts as the client's own wording of one locale, over the shipped bundles: added,
 * updated or unchanged; keys not in the file stay as they are. The reference is the default
 * locale's keys. A text using a placeholder the reference lacks is refused; one leaving a
 * placeholder out is reported and imported. `apply: false` reads only and says what would change.
 */
export async function importBundle(
  db: Db,
  actor: Actor,
  request: { clientId: string; locale: string; texts: Record<string, string>; source: string; apply: boolean; reason?: string | undefined },
  now = new Date(),
): Promise<ImportOutcome> {
  const { client, locale } = await clientLocale(db, request.clientId, request.locale);
  const outcome: ImportOutcome = {
    locale,
    applied: request.apply,
    added: [],
    updated: [],
    unchanged: 0,
    rejected: [],
    extra: [],
    placeholderMismatches: [],
    missing: [],
    auditId: null,
    mismatches: [],
  };
  const work = async (trx: Db) => {
    const sources = await readSources(trx, client.id, client.default_locale, locale);
    const accepted: Array<[string, string]> = [];
    for (const [key, text] of Object.entries(request.texts)) {
      const expectedText = sources.reference.get(key);
      if (expectedText === undefined) outcome.extra.push(key);
      else {
        const expected = placeholders(expectedText);
        const found = placeholders(text);
        if (expected.join() !== found.join()) {
          const imported = unknownPlaceholders(expectedText, text).length === 0;
          outcome.mismatches.push({ key, expected, found, imported });
          (imported ? outcome.placeholderMismatches : outcome.rejected).push({ key, expected, found });
          if (!imported) continue;
        }
      }
      const before = sources.own.get(key);
      if (before === text) outcome.unchanged += 1;
      else {
        (before === undefined ? outcome.added : outcome.updated).push(key);
        accepted.push([key, text]);
      }
      sources.own.set(key, text);
    }
    outcome.missing = [...sources.reference.keys()].filter((key) => !sources.own.has(key) && !Object.hasOwn(sources.shipped, key)).sort();
    if (!request.apply) return;
    await upsertClientTranslations(trx, client.id, locale, accepted);
    outcome.auditId = await recordAudit(
      trx,
      {
        clientId: client.id,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'clients.translations.import',
        subject: request.source,
        details: {
          locale,
          added: outcome.added.length,
          updated: outcome.updated.length,
          unchanged: outcome.unchanged,
          rejected: outcome.rejected.length,
          missing: outcome.missing.length,
          extra: outcome.extra.length,
          ...(request.reason ? { reason: request.reason } : {}),
        },
        origin: actor.origin,
      },
      now,
    );
  };
  if (request.apply) await db.transaction().execute(work);
  else await work(db);
  if (request.apply) clearReadCache(db);
  outcome.extra.sort();
  return outcome;
}

/** A locale as a bundle file that importBundle (and the command) read back to the same texts. */
export async function exportBundle(
  db: Db,
  clientId: string,
  rawLocale: string,
  format: BundleFormat,
  scope: ExportScope,
): Promise<{ fileName: string; body: string }> {
  const { client, locale } = await clientLocale(db, clientId, rawLocale);
  const sources = await readSources(db, client.id, client.default_locale, locale);
  const texts: Record<string, string> = {};
  if (scope === 'own') for (const [key, text] of sources.own) texts[key] = text;
  else if (scope === 'all') Object.assign(texts, sources.shipped, Object.fromEntries(sources.own));
  else
    for (const key of keysOf(sources)) {
      const row = rowOf(sources, locale, key);
      if (row.state !== 'ok' && row.reference !== null) texts[key] = row.reference;
    }
  const suffix = scope === 'all' ? '' : `.${scope}`;
  return {
    fileName: `${client.id}${suffix}.${locale}.${format}`,
    body: formatBundle(format, texts, format === 'properties' ? `# ${client.id} ${locale} (${scope}), UTF-8` : undefined),
  };
}
