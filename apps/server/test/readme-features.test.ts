import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README's feature list names every feature folder on each side, so a newcomer finds a
 * feature's code from its name. No database: this reads the tree and the README only.
 */
const root = resolve(import.meta.dirname, '..', '..', '..');
const FEATURE_ROOTS = ['apps/web/src/features', 'apps/console/src/features', 'apps/server/src/modules'];

const readme = readFileSync(join(root, 'README.md'), 'utf8');
// Up to the next section, or the end of the README (it is the last one).
const section = /^## Features, and where they live$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';

describe("the README's feature list", () => {
  it('is there', () => {
    expect(section).toContain('| feature |');
  });

  it.each(FEATURE_ROOTS)('names every folder of %s', (featureRoot) => {
    const folders = readdirSync(join(root, featureRoot), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${featureRoot}/${entry.name}`);
    expect(folders.length).toBeGreaterThan(0);
    expect(folders.filter((folder) => !section.includes(`\`${folder}\``))).toEqual([]);
  });

  it('names only folders that exist', () => {
    const named = [...section.matchAll(/`(apps\/(?:web|console|server)\/src\/(?:features|modules)\/[\w-]+)`/g)].map((m) => m[1] ?? '');
    const missing = [...new Set(named)].filter((folder) => {
      try {
        return !readdirSync(join(root, folder)).length;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
