import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasMessage } from './t.ts';

/**
 * Every refusal a console route can answer has a text in the console's words (issue 30 §6, decision 087).
 * The routes name no error list of their own, so the keys are read where they are made: every
 * `new ApiError(status, code, 'key', …)` in the server files a console route file reaches through its
 * imports, plus the one error handler's. That is a superset (a shared service file brings its
 * portal-only refusals along), which errs on the side of a text too many rather than one missing.
 */
const SERVER_SRC = resolve(import.meta.dirname, '../../../server/src');
const ERROR_HANDLER = join(SERVER_SRC, 'http/error-handler.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files that register console routes: each spreads `documented(...)` (modules/staff/routes.ts) into a route's schema. */
function consoleRouteFiles(): string[] {
  return sourceFiles(SERVER_SRC).filter((file) => /\.\.\.documented\(/.test(readFileSync(file, 'utf8')));
}

/** The files reachable from the roots through relative imports (static and dynamic). */
function reachable(roots: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), specifier!);
      if (existsSync(target) && !seen.has(target)) stack.push(target);
    }
  }
  return [...seen];
}

/** `new ApiError(400, ErrorCode.x, 'the.key', …)`, and the handler's own bodies (`responseMessage: 'the.key'`). */
const API_ERROR = /new ApiError\(\s*([^,]+),\s*([^,]+),\s*([^,]+),/g;
const LITERAL_BODY = /responseMessage: '([^']+)'/g;

function errorKeys(files: string[]): { keys: Map<string, string>; notLiteral: string[] } {
  const keys = new Map<string, string>();
  const notLiteral: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(SERVER_SRC, file);
    for (const [, , , key] of text.matchAll(API_ERROR)) {
      const literal = /^\s*'([^']+)'\s*$/.exec(key!);
      if (literal) keys.set(literal[1]!, where);
      else notLiteral.push(`${where}: ${key!.trim()}`);
    }
    for (const [, key] of text.matchAll(LITERAL_BODY)) keys.set(key!, where);
  }
  return { keys, notLiteral };
}

describe('the console has its own words for every refusal its routes can answer', () => {
  const roots = consoleRouteFiles();
  const { keys, notLiteral } = errorKeys(reachable([...roots, ERROR_HANDLER]));

  it('finds the console routes and their refusals', () => {
    expect(roots.length).toBeGreaterThan(10);
    // The keys this suite was written against: the search must keep finding at least these.
    for (const key of ['error.validation', 'error.internal', 'console.error.insufficientBalance', 'imports.error.refused'])
      expect([...keys.keys()]).toContain(key);
  });

  it('reads every key as written (a key in a variable would escape this test)', () => {
    expect(notLiteral).toEqual([]);
  });

  it('has a text in en.ts for each key', () => {
    const missing = [...keys].filter(([key]) => !hasMessage(key)).map(([key, where]) => `${key} (${where})`);
    expect(missing).toEqual([]);
  });
});
