import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { RULES_KEY_PREFIX } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import {
  checkContentBody,
  checkContentKey,
  MAX_CONTENT_BYTES,
  programsWithParticipants,
  saveContentEntries,
} from '../../modules/content/editing.ts';
import { readClientLocales } from '../../modules/clients/service.ts';
import { operatorOrigin } from '../commands/audit.ts';
import { CliError, requireClient } from '../cli-context.ts';
import { canonicalLocale } from './settings.ts';

export { MAX_CONTENT_BYTES };
const MAX_ENTRIES = 500;

/** The layouts `clients content import` reads; also its --help. */
export const CONTENT_LAYOUT = `A directory of <locale>/<key>.md files, e.g.
  content/fr-FR/faqs.md  content/fr-FR/privacyPolicy.md  content/fr-FR/privacyNotice.md
  content/fr-FR/rules.Sales Incentive 2026.md   (rules.<program name>)
or a JSON file {"<locale>": {"<key>": "<markdown>", ...}, ...}.
Keys: faqs, privacyPolicy, privacyNotice, rules.<program name>. Texts are Markdown (raw HTML is not rendered).`;

interface ContentItem {
  locale: string;
  key: string;
  body: string;
  /** Where it came from, for messages. */
  source: string;
}

export interface ContentReport {
  client: string;
  path: string;
  added: number;
  updated: number;
  unchanged: number;
  entries: Array<{ locale: string; key: string; result: 'added' | 'updated' | 'unchanged' }>;
  /** Programs with rules that no participant of the client is in (yet): a typo shows here. */
  programsWithoutParticipants: string[];
}

// The key and body rules are the content module's (the console's editor checks the same, decision 066).
const checkKey = (key: string, source: string) => checkContentKey(key, source);
const checkBody = (body: unknown, source: string) => checkContentBody(body, source);

function readUtf8(path: string): string {
  try {
    if (statSync(path).size > MAX_CONTENT_BYTES * 4) throw new Error('too big');
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path)).replace(/^\uFEFF/, '');
  } catch {
    throw new CliError(`cannot read ${path} as UTF-8 text of at most ${(MAX_CONTENT_BYTES * 4) / 1024} KB`);
  }
}

/** The items of a directory or JSON file, checked one by one. */
export function readContent(path: string): ContentItem[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new CliError(`cannot read ${path}`);
  }
  const items: ContentItem[] = [];
  if (isDirectory) {
    for (const localeDir of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (localeDir.name.startsWith('.')) continue;
      if (!localeDir.isDirectory()) throw new CliError(`${join(path, localeDir.name)}: expected a directory per locale (e.g. fr-FR/)`);
      const locale = canonicalLocale(join(path, localeDir.name), localeDir.name);
      for (const file of readdirSync(join(path, localeDir.name)).sort()) {
        if (file.startsWith('.')) continue;
        const source = join(path, localeDir.name, file);
        if (extname(file) !== '.md') throw new CliError(`${source}: expected <key>.md`);
        items.push({ locale, key: checkKey(basename(file, '.md'), source), body: checkBody(readUtf8(source), source), source });
      }
    }
  } else {
    if (extname(path).toLowerCase() !== '.json') throw new CliError(`${path}: give a directory of <locale>/<key>.md files or a .json file`);
    let data: unknown;
    try {
      data = JSON.parse(readUtf8(path));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`${path} is not valid JSON`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new CliError(`${path}: expected {"<locale>": {"<key>": "<markdown>"}}`);
    for (const [rawLocale, entries] of Object.entries(data)) {
      const locale = canonicalLocale(`${path} ${rawLocale}`, rawLocale);
      if (typeof entries !== 'object' || entries === null || Array.isArray(entries))
        throw new CliError(`${path}: ${rawLocale} must be an object of keys and texts`);
      for (const [key, body] of Object.entries(entries as Record<string, unknown>)) {
        const source = `${path} ${rawLocale}.${key}`;
        items.push({ locale, key: checkKey(key, source), body: checkBody(body, source), source });
      }
    }
  }
  if (items.length === 0) throw new CliError(`${path} holds no content`);
  if (items.length > MAX_ENTRIES) throw new CliError(`${path} holds ${items.length} texts; at most ${MAX_ENTRIES}`);
  return items;
}

/**
 * `clients content import`: upserts the texts into content_entries in one transaction with its
 * audit entry. An unchanged text keeps its date (the page shows "updated on").
 */
export async function importContent(
  db: Db,
  request: { clientId: string; path: string; operator: string; now?: Date },
): Promise<ContentReport> {
  const client = await requireClient(db, request.clientId);
  const items = readContent(request.path);
  const offered = (await readClientLocales(db, client.id)).map((r) => r.code);
  for (const item of items) {
    if (!offered.includes(item.locale))
      throw new CliError(`${item.source}: ${item.locale} is not one of ${client.id}'s locales (${offered.join(', ')})`);
  }
  const done = await saveContentEntries(
    db,
    { name: request.operator, kind: 'operator', origin: operatorOrigin },
    {
      clientId: client.id,
      items,
      action: 'clients.content.import',
      subject: basename(request.path),
      details: (results) => ({
        added: results.filter((r) => r.result === 'added').length,
        updated: results.filter((r) => r.result === 'updated').length,
        unchanged: results.filter((r) => r.result === 'unchanged').length,
        keys: [...new Set(items.map((i) => i.key))],
      }),
      auditUnchanged: true,
    },
    request.now,
  );
  const report: ContentReport = {
    client: client.id,
    path: request.path,
    added: 0,
    updated: 0,
    unchanged: 0,
    entries: [],
    programsWithoutParticipants: [],
  };
  for (const r of done.results) {
    report[r.result] += 1;
    report.entries.push({ locale: r.locale, key: r.key, result: r.result });
  }
  const programs = [...new Set(items.filter((i) => i.key.startsWith(RULES_KEY_PREFIX)).map((i) => i.key.slice(RULES_KEY_PREFIX.length)))];
  const known = new Set(await programsWithParticipants(db, client.id, programs));
  report.programsWithoutParticipants = programs.filter((p) => !known.has(p));
  return report;
}

export function formatContentReport(r: ContentReport): string {
  const lines = [`Content of ${r.client} from ${r.path}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged.`];
  for (const e of r.entries) lines.push(`  ${e.locale} ${e.key}: ${e.result}`);
  if (r.programsWithoutParticipants.length > 0)
    lines.push(`No participant is in (check the names): ${r.programsWithoutParticipants.join(', ')}`);
  return lines.join('\n');
}
