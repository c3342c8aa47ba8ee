import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * What the web build reads: if none of it changed since the last build, `npm start` need not
 * build again (decision 015). Paths are relative to the repository root.
 */
export const WEB_BUILD_INPUTS = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/precompress-plugin.ts',
  'apps/web/build-stamp.ts',
  'apps/web/first-screen-plugin.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  // The English texts of the error screen shown without client data (app/startup.ts).
  'packages/translations/bundles/en-US.json',
  'package-lock.json',
];

/** Written into dist after a build: the hash of the inputs the build started from. */
export const STAMP_FILE = '.build-stamp';

const ROOT = join(import.meta.dirname, '..', '..');

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' || name.startsWith('.') ? [] : files(join(path, name))));
}

/**
 * A content hash (not mtimes: a checkout or a copy touches every file) of the build inputs.
 * A few hundred small files: a few tens of milliseconds.
 */
export function webInputsHash(root = ROOT, inputs: readonly string[] = WEB_BUILD_INPUTS): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(join(root, input))) {
      hash.update(relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** True when dist holds a build of exactly the current inputs. */
export function webBuildIsCurrent(distDir: string, root = ROOT, inputs: readonly string[] = WEB_BUILD_INPUTS): boolean {
  const stamp = join(distDir, STAMP_FILE);
  if (!existsSync(join(distDir, 'index.html')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === webInputsHash(root, inputs);
}

/** Stamps each build with the hash of the inputs as they were when it started (the console passes its own list). */
export function buildStamp(inputs: readonly string[] = WEB_BUILD_INPUTS): Plugin {
  let outDir = '';
  let hash = '';
  return {
    name: 'rewards-build-stamp',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart() {
      hash = webInputsHash(ROOT, inputs);
    },
    closeBundle() {
      writeFileSync(join(outDir, STAMP_FILE), `${hash}\n`);
    },
  };
}
