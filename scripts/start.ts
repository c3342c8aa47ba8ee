/**
 * `npm start`: builds the web app only when its inputs changed since the last build (the hash
 * in apps/web/dist/.build-stamp, see apps/web/build-stamp.ts) and the server only when a source
 * of its bundle changed (scripts/build-server.ts), then turns this very process into the server:
 * `process.execve` replaces it with `node <process-settings flags> apps/server/dist/main.js`, same
 * pid, same signals from npm (docs/decisions/058). The server's process so never holds what this
 * script needed (the TypeScript stripper, the bundler), and its node flags come from
 * process-settings.ts alone. A restart with nothing changed builds nothing (decision 015); a
 * fresh clone has no dist and builds both.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { webBuildIsCurrent } from '../apps/web/build-stamp.ts';
import { CONSOLE_BUILD_INPUTS } from '../apps/console/build-inputs.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../apps/server/src/process-settings.ts';
import { ensureServerBuild, SERVER_MAIN_JS } from './build-server.ts';

const ROOT = join(import.meta.dirname, '..');
const dist = join(ROOT, 'apps', 'web', 'dist');
const consoleDist = join(ROOT, 'apps', 'console', 'dist');

// WEB_DIST set: the operator serves another build (or, empty, none); it is not ours to build.
if (process.env.WEB_DIST === undefined && !webBuildIsCurrent(dist)) {
  console.log('The web app changed since its last build: building it.');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The staff console the same way, on its own inputs (decision 050); CONSOLE_DIST set: not ours.
if (process.env.CONSOLE_DIST === undefined && !webBuildIsCurrent(consoleDist, ROOT, CONSOLE_BUILD_INPUTS)) {
  console.log('The console changed since its last build: building it.');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/console'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await ensureServerBuild();

// Flags given to node for this script (`node --inspect scripts/start.ts`) go along, after ours so
// that they win.
const args = [process.execPath, ...SERVER_NODE_FLAGS, ...process.execArgv, SERVER_MAIN_JS];
if (process.execve) process.execve(process.execPath, args, { ...process.env, ...SERVER_ENV });
// Windows has no execve: the server runs in this process then, without the flags.
else await import(pathToFileURL(SERVER_MAIN_JS).href);
