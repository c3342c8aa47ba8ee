/**
 * The server as one JavaScript file, apps/server/dist/main.js (docs/decisions/058): the portal's
 * process then never loads Node's TypeScript type stripper (~17 MB resident) and reads one module
 * instead of some three hundred. `npm start` and the bench run it, building it first when a source
 * it was built from changed (the stamp below); tests and `npm run dev` run the .ts sources.
 *
 * Our sources (the server's and the @rewards/contract workspace's) go into the bundle; every
 * package stays an import of node_modules, as when the sources run directly.
 *
 * `node scripts/build-server.ts` (or `npm run build:server`) builds it by hand.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'rolldown';

const ROOT = join(import.meta.dirname, '..');
export const SERVER_DIST = join(ROOT, 'apps', 'server', 'dist');
export const SERVER_MAIN_JS = join(SERVER_DIST, 'main.js');
const ENTRY = join(ROOT, 'apps', 'server', 'src', 'main.ts');
const STAMP_FILE = '.build-stamp.json';
/** What shapes the bundle besides the sources it holds: the bundler's version and this script. */
const TOOL_INPUTS = ['package-lock.json', 'scripts/build-server.ts', 'tsconfig.base.json', 'apps/server/tsconfig.json'];

const posix = (path: string) => path.split(sep).join('/');

interface Stamp {
  hash: string;
  /** Repository-relative paths of the sources in the bundle and of TOOL_INPUTS. */
  files: string[];
}

/** A content hash (a checkout touches every mtime) of the files; a missing file counts too. */
function filesHash(files: readonly string[], root: string): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(root, file);
    hash.update(file);
    hash.update('\0');
    hash.update(existsSync(path) ? readFileSync(path) : '\0missing');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * True when dist holds a build of exactly the current sources: the stamp lists the files the
 * bundle was made of, so only those are read again (~300 files, a few tens of milliseconds), and
 * a change to a test or an unused file does not rebuild.
 */
export function serverBuildIsCurrent(dist = SERVER_DIST, root = ROOT): boolean {
  const stampPath = join(dist, STAMP_FILE);
  if (!existsSync(join(dist, 'main.js')) || !existsSync(stampPath)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8')) as Stamp;
    return Array.isArray(stamp.files) && stamp.hash === filesHash(stamp.files, root);
  } catch {
    return false;
  }
}

/**
 * Keeps `import.meta.dirname`, `.filename` and `.url` meaning each source file's own place (the
 * i18n bundles, the API document, the demo catalogue's CSS and the web app's dist are found from
 * them) by writing them relative to the bundle's own location, so the tree can still be moved.
 */
function sourceLocations(outDir: string): Plugin {
  const fromOut = (path: string) => JSON.stringify(posix(relative(outDir, path)));
  return {
    name: 'rewards-source-locations',
    transform: {
      filter: { id: /\.ts$/, code: 'import.meta.' },
      handler(code, id) {
        if (id.includes(`${sep}node_modules${sep}`)) return null;
        const replaced = code
          .replaceAll('import.meta.dirname', `__rewardsJoin(import.meta.dirname, ${fromOut(dirname(id))})`)
          .replaceAll('import.meta.filename', `__rewardsJoin(import.meta.dirname, ${fromOut(id)})`)
          .replaceAll('import.meta.url', `new URL(${fromOut(id)}, import.meta.url).href`);
        return { code: `import { join as __rewardsJoin } from 'node:path';\n${replaced}`, map: null };
      },
    },
  };
}

/**
 * The commit the bundle is built from, for the metrics' rewards_build_info (decision 079): asked of
 * git here, at build time, so the running server never runs git. REWARDS_BUILD_COMMIT, when set,
 * says it instead (a build outside a clone); "-dirty" marks a tree with changes to tracked files.
 * The build is reused while its sources are unchanged, so a commit that changed none of them
 * keeps the commit of the build before.
 */
function buildCommit(): string {
  if (process.env.REWARDS_BUILD_COMMIT) return process.env.REWARDS_BUILD_COMMIT;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const head = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? head : `${head}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** Bare imports are packages and stay imports, except our own workspaces (TypeScript sources). */
function isExternal(id: string): boolean {
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')) return false;
  return !id.startsWith('@rewards/');
}

export async function buildServer(dist = SERVER_DIST): Promise<void> {
  const started = performance.now();
  // Loaded only to build: a start with nothing to build does not pay for the bundler.
  const { rolldown } = await import('rolldown');
  // Built beside dist and renamed into place: a start reading dist meanwhile sees the old build
  // or the new one, never half of one.
  const staging = `${dist}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const bundle = await rolldown({
    input: { main: ENTRY },
    platform: 'node',
    cwd: ROOT,
    external: isExternal,
    // The paths are rewritten for dist's place, where the build ends up (not the staging dir).
    plugins: [sourceLocations(dist)],
    // modules/metrics/build-info.ts reads it.
    transform: { define: { REWARDS_BUILD_COMMIT: JSON.stringify(buildCommit()) } },
    logLevel: 'warn',
  });
  const sources = new Set<string>();
  try {
    const { output } = await bundle.write({
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
      sourcemap: true,
    });
    for (const chunk of output) {
      if (chunk.type === 'chunk') for (const id of chunk.moduleIds) if (!id.startsWith('\0')) sources.add(posix(relative(ROOT, id)));
    }
  } finally {
    await bundle.close();
  }
  const files = [...new Set([...sources, ...TOOL_INPUTS])].sort();
  const stamp: Stamp = { hash: filesHash(files, ROOT), files };
  writeFileSync(join(staging, STAMP_FILE), `${JSON.stringify(stamp, null, 1)}\n`);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dirname(dist), { recursive: true });
  try {
    renameSync(staging, dist);
  } catch (error) {
    // Another build (a second `npm start`, a test) put its own in place meanwhile: if it is of
    // the same sources, it is as good as ours.
    rmSync(staging, { recursive: true, force: true });
    if (!serverBuildIsCurrent(dist)) throw error;
  }
  console.log(
    `The server was built into ${posix(relative(ROOT, dist))} (${sources.size} source files) in ${Math.round(performance.now() - started)} ms.`,
  );
}

/** Builds the server unless dist is already a build of the current sources. */
export async function ensureServerBuild(): Promise<void> {
  if (!serverBuildIsCurrent()) await buildServer();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
