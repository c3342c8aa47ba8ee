// Decision 015: the browser gets no zod. The contract package holds the server's zod schemas;
// the web may take types from anywhere in it, but code only from the zod-free subpaths.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');
const CONTRACT = resolve(SRC, '..', '..', '..', 'packages', 'contract', 'src');
const ZOD_FREE_SUBPATHS = ['paths', 'password-rules', 'content-rules', 'sso', 'activation-fields', 'query-defaults', 'csv'];

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

/** Every `import … from '…'` that brings code (not `import type`). */
const codeImports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map((match) => match[1] ?? '');

describe('what the web app takes from the contract package', () => {
  it('takes code only from the zod-free subpaths', () => {
    const offending = sources(SRC).flatMap((file) =>
      codeImports(file)
        .filter((from) => from.startsWith('@rewards/contract') && !ZOD_FREE_SUBPATHS.some((sub) => from === `@rewards/contract/${sub}`))
        .map((from) => `${file.slice(SRC.length)}: ${from}`),
    );
    expect(offending).toEqual([]);
  });

  it('those subpaths bring no zod, not even through their own imports', () => {
    const seen = new Set<string>();
    const visit = (file: string): string[] => {
      if (seen.has(file)) return [];
      seen.add(file);
      return codeImports(file).flatMap((from) => (from.startsWith('.') ? visit(resolve(dirname(file), from)) : [from]));
    };
    const external = ZOD_FREE_SUBPATHS.flatMap((sub) => visit(join(CONTRACT, `${sub}.ts`)));
    expect(external).toEqual([]);
  });
});
