import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The translation tables against the code: a key no code names is dead weight in every reply
 * that carries a bundle, and a key named but missing shows "Missing locale value". The tables
 * are packages/translations (merged per locale as the server's base-bundles.ts does); the keys
 * are named by the web app and by the server (the responseMessage of its errors, its mails and
 * statement lines). The console has tables of its own (apps/console/src/i18n).
 */
const SRC = resolve(import.meta.dirname, '..');
const SERVER = resolve(SRC, '..', '..', 'server', 'src');
const CONTRACT = resolve(SRC, '..', '..', '..', 'packages', 'contract', 'src');
const BUNDLES = resolve(SRC, '..', '..', '..', 'packages', 'translations', 'bundles');

/** The production sources under a folder: no tests, no test helpers. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$|\/testing\.ts$|\/test\//.test(path));

/**
 * Keys the code builds from a value (`t(\`shops.${type}.title\`)`): each `*` stands for one of
 * the listed values. A built key missing here fails the last test below.
 */
const BUILT_KEYS: Readonly<Record<string, readonly string[]>> = {
  'account.field.*': ['accountNumber', 'userName', 'lastName', 'firstName', 'emailAddress', 'dateOfBirth'],
  'contact.topic.*': ['points', 'order', 'ots', 'account', 'other'],
  'dateField.*': ['day', 'month', 'year'],
  'devPanel.access.*': ['anonymous', 'signedIn', 'any'],
  'error.chunkLoad.*': ['timeout', 'missing', 'other'],
  'login.validation.*': ['username', 'password'],
  'mail.*.subject': ['forgotUsername', 'resetPassword', 'activated', 'passwordChanged', 'activationInvite', 'emailChanged'],
  'passwordRules.*': ['minLength', 'maxLength', 'upper', 'lower', 'digit', 'symbol', 'notUsername'],
  'shops.*.title': ['merchandise', 'experiences'],
  'shops.*.downTitle': ['merchandise', 'experiences'],
  'shops.*.text': ['merchandise', 'experiences'],
  'shops.menu.*': ['merchandise', 'experiences'],
};

function readTables(): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>();
  for (const file of readdirSync(BUNDLES)) {
    const locale = /^(?:[a-z][a-z0-9-]*\.)?([A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*)\.json$/.exec(file)?.[1];
    if (locale === undefined) continue;
    const keys = tables.get(locale) ?? new Set<string>();
    for (const key of Object.keys(JSON.parse(readFileSync(join(BUNDLES, file), 'utf8')) as object)) keys.add(key);
    tables.set(locale, keys);
  }
  return tables;
}

const tables = readTables();
const english = tables.get('en-US') ?? new Set<string>();
const groups = new Set([...english].map((key) => key.split('.')[0]));

// Lines that are comments do not use a key, even when they quote one.
const code = [SRC, SERVER, CONTRACT]
  .flatMap(sources)
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n')
  .split('\n')
  .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
  .join('\n');

const looksLikeKey = (text: string) =>
  /^[A-Za-z][\w-]*(\.[\w-]+)+$/.test(text) && groups.has(text.split('.')[0] ?? '') && !/\.(css|js|json|tsx?|html|svg|png|webp)$/.test(text);

/** Every quoted text of the code that has a key's shape and starts with a key group of the tables. */
const namedKeys = new Set([...code.matchAll(/['"`]([A-Za-z][\w.-]*)['"`]/g)].map((m) => m[1] ?? '').filter(looksLikeKey));

/** Every template literal of the code that builds a key, as its pattern (`shops.*.title`). */
const builtPatterns = new Set(
  [...code.matchAll(/`([^`\n]*\$\{[^`\n]*)`/g)]
    .map((m) => (m[1] ?? '').replace(/\$\{[^}]*\}/g, '*'))
    .filter((pattern) => /^[A-Za-z][\w-]*(\.[\w*-]+)+$/.test(pattern) && groups.has(pattern.split('.')[0] ?? '')),
);

const builtKeys = Object.entries(BUILT_KEYS).flatMap(([pattern, values]) => values.map((value) => pattern.replace('*', value)));
const usedKeys = new Set([...namedKeys, ...builtKeys]);

describe('translation keys', () => {
  it('reads every table and both sides of the code', () => {
    expect([...tables.keys()].sort()).toEqual(['ar', 'en-US', 'fr-FR']);
    expect(english.size).toBeGreaterThan(300);
    // A key the server sends as an error's responseMessage, one the web names, one of a mail.
    expect(namedKeys).toContain('login.error.invalidCredentials');
    expect(namedKeys).toContain('home.welcome');
    expect(namedKeys).toContain('mail.greeting');
  });

  it.each([...tables.keys()])('%s has no key that nothing uses', (locale) => {
    const unused = [...(tables.get(locale) ?? [])].filter((key) => !usedKeys.has(key));
    expect(unused).toEqual([]);
  });

  it.each([...tables.keys()])('%s has every key the code uses', (locale) => {
    const table = tables.get(locale) ?? new Set<string>();
    expect([...usedKeys].filter((key) => !table.has(key))).toEqual([]);
  });

  it('knows the values of every key the code builds', () => {
    expect([...builtPatterns].filter((pattern) => !Object.hasOwn(BUILT_KEYS, pattern)).sort()).toEqual([]);
    expect(Object.keys(BUILT_KEYS).filter((pattern) => !builtPatterns.has(pattern))).toEqual([]);
  });
});
