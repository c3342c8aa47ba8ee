import { basename } from 'node:path';
import type { Db } from '../../db/database.ts';
import { clientLocales } from '../../modules/clients/service.ts';
import { importBundle } from '../../modules/i18n/editing.ts';
import { operatorOrigin } from '../commands/audit.ts';
import { CliError, requireClient } from '../cli-context.ts';
import { localeFromFileName, readBundleFile } from './bundle-file.ts';
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

/**
 * `clients translations import`: the file's texts become the client's own wording for one
 * locale, through the i18n module's importBundle (the console's import calls the same; decision
 * 066): re-importing updates what changed; keys not in the file are left as they are; a text
 * using a placeholder the default locale's text does not have is refused, one leaving a
 * placeholder out is only reported. One transaction with its audit entry; --dry-run writes nothing.
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
  const offered = (await clientLocales(db, client.id)).map((l) => l.code);
  if (!offered.includes(locale))
    throw new CliError(`${locale} is not one of ${client.id}'s locales (${offered.join(', ')}); add it with clients update --locale`);
  const outcome = await importBundle(
    db,
    { name: request.operator, kind: 'operator', origin: operatorOrigin },
    { clientId: client.id, locale, texts, source: basename(request.file), apply: request.dryRun !== true },
    request.now,
  );
  return {
    client: client.id,
    file: request.file,
    locale,
    added: outcome.added.length,
    updated: outcome.updated.length,
    unchanged: outcome.unchanged,
    rejected: outcome.rejected.length,
    missing: outcome.missing,
    extra: outcome.extra,
    placeholderMismatches: outcome.mismatches,
  };
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
