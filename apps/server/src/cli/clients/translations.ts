import { basename } from 'node:path';
import type { Db } from '../../db/database.ts';
import { recordAudit } from '../../modules/audit/service.ts';
import { baseBundles, FALLBACK_LOCALE } from '../../modules/i18n/base-bundles.ts';
import { operatorOrigin } from '../commands/audit.ts';
import { CliError, requireClient } from '../cli-context.ts';
import { localeFromFileName, placeholders, readBundleFile } from './bundle-file.ts';
import { canonicalLocale } from './settings.ts';

export interface TranslationsReport {
  client: string;
  file: string;
  locale: string;
  added: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Keys of the default locale this locale still has no text for (they show in the fallback language). */
  missing: string[];
  /** Keys of the file the default locale does not have (imported, but nothing shows them). */
  extra: string[];
  /** Texts whose {placeholders} differ from the default locale's; `unknown` ones are refused. */
  placeholderMismatches: Array<{ key: string; expected: string[]; found: string[]; imported: boolean }>;
}

const BATCH = 500;

/**
 * `clients translations import`: the file's texts become the client's own wording for one
 * locale, over the shipped bundles. Re-importing updates what changed; keys not in the file
 * are left as they are. The reference is the default locale's keys: the shipped bundles (with
 * English as their floor) plus the client's own. A text using a placeholder the reference
 * does not have is refused (it would show as "{name}"); one leaving a placeholder out is only
 * reported. Everything is one transaction with its audit entry.
 */
export async function importTranslations(
  db: Db,
  request: { clientId: string; file: string; locale?: string; operator: string; dryRun?: boolean; now?: Date },
): Promise<TranslationsReport> {
  const client = await requireClient(db, request.clientId);
  const texts = readBundleFile(request.file);
  const named = request.locale ?? localeFromFileName(request.file);
  if (!named) throw new CliError(`--locale is required: the name of ${basename(request.file)} names no locale`);
  const locale = canonicalLocale('--locale', named);
  const offered = (
    await db.selectFrom('client_locales').select('code').where('client_id', '=', client.id).orderBy('position').execute()
  ).map((r) => r.code);
  if (!offered.includes(locale))
    throw new CliError(`${locale} is not one of ${client.id}'s locales (${offered.join(', ')}); add it with clients update --locale`);

  const reference = await effectiveTexts(db, client.id, client.default_locale);
  const report: TranslationsReport = {
    client: client.id,
    file: request.file,
    locale,
    added: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    missing: [],
    extra: [],
    placeholderMismatches: [],
  };
  const accepted: Array<[string, string]> = [];
  for (const [key, text] of Object.entries(texts)) {
    const expectedText = reference.get(key);
    if (expectedText === undefined) {
      report.extra.push(key);
      accepted.push([key, text]);
      continue;
    }
    const expected = placeholders(expectedText);
    const found = placeholders(text);
    if (expected.join() !== found.join()) {
      const unknown = found.some((p) => !expected.includes(p));
      report.placeholderMismatches.push({ key, expected, found, imported: !unknown });
      if (unknown) {
        report.rejected += 1;
        continue;
      }
    }
    accepted.push([key, text]);
  }

  await db
    .transaction()
    .execute(async (trx) => {
      const stored = new Map(
        (
          await trx
            .selectFrom('translations')
            .select(['key', 'text'])
            .where('client_id', '=', client.id)
            .where('locale', '=', locale)
            .execute()
        ).map((r) => [r.key, r.text]),
      );
      const added: Array<[string, string]> = [];
      for (const [key, text] of accepted) {
        const before = stored.get(key);
        if (before === undefined) added.push([key, text]);
        else if (before === text) report.unchanged += 1;
        else {
          await trx
            .updateTable('translations')
            .set({ text })
            .where('client_id', '=', client.id)
            .where('locale', '=', locale)
            .where('key', '=', key)
            .execute();
          report.updated += 1;
        }
        stored.set(key, text);
      }
      for (let i = 0; i < added.length; i += BATCH) {
        await trx
          .insertInto('translations')
          .values(added.slice(i, i + BATCH).map(([key, text]) => ({ client_id: client.id, locale, key, text })))
          .execute();
      }
      report.added = added.length;
      const shipped = baseBundles.get(locale) ?? {};
      report.missing = [...reference.keys()].filter((key) => !stored.has(key) && !(key in shipped)).sort();
      await recordAudit(
        trx,
        {
          clientId: client.id,
          actor: request.operator,
          actorKind: 'operator',
          action: 'clients.translations.import',
          subject: basename(request.file),
          details: {
            locale,
            added: report.added,
            updated: report.updated,
            unchanged: report.unchanged,
            rejected: report.rejected,
            missing: report.missing.length,
            extra: report.extra.length,
          },
          origin: operatorOrigin,
        },
        request.now,
      );
      // A dry run reports what would happen and keeps nothing.
      if (request.dryRun) throw new DryRun();
    })
    .catch((error: unknown) => {
      if (!(error instanceof DryRun)) throw error;
    });
  report.extra.sort();
  return report;
}

class DryRun extends Error {}

/** The client's texts in a locale as the portal shows them: English floor, shipped locale, the client's own. */
async function effectiveTexts(db: Db, clientId: string, locale: string): Promise<Map<string, string>> {
  const own = await db
    .selectFrom('translations')
    .select(['key', 'text'])
    .where('client_id', '=', clientId)
    .where('locale', '=', locale)
    .execute();
  const texts = new Map<string, string>(Object.entries({ ...baseBundles.get(FALLBACK_LOCALE), ...baseBundles.get(locale) }));
  for (const row of own) texts.set(row.key, row.text);
  return texts;
}

const SHOWN = 20;

export function formatTranslationsReport(r: TranslationsReport): string {
  const lines = [
    `Translations ${r.locale} of ${r.client} from ${r.file}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged, ${r.rejected} rejected.`,
  ];
  const list = (title: string, keys: string[]) => {
    if (keys.length === 0) return;
    lines.push(
      `${title} (${keys.length}): ${keys.slice(0, SHOWN).join(', ')}${keys.length > SHOWN ? `, … (${keys.length - SHOWN} more, see --json)` : ''}`,
    );
  };
  list(`Missing: keys of the default locale with no ${r.locale} text, shown in the fallback language`, r.missing);
  list('Extra: keys the default locale does not have', r.extra);
  for (const m of r.placeholderMismatches) {
    lines.push(
      `Placeholders of ${m.key}: expected {${m.expected.join('}, {')}} found {${m.found.join('}, {')}}${m.imported ? '' : ' (refused)'}`.replace(
        /\{\}/g,
        'none',
      ),
    );
  }
  return lines.join('\n');
}
