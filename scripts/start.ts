/**
 * `npm start`: builds the web app only when its inputs changed since the last build (the hash
 * in apps/web/dist/.build-stamp, see apps/web/build-stamp.ts), then runs the server in this
 * process. A restart with nothing changed goes straight to the server (decision 015); a fresh
 * clone has no dist and builds.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { webBuildIsCurrent } from '../apps/web/build-stamp.ts';

const ROOT = join(import.meta.dirname, '..');
const dist = join(ROOT, 'apps', 'web', 'dist');

// WEB_DIST set: the operator serves another build (or, empty, none); it is not ours to build.
if (process.env.WEB_DIST === undefined && !webBuildIsCurrent(dist)) {
  console.log('The web app changed since its last build: building it.');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server in this very process: one Node start, and its own signal handling stays as it is.
await import('../apps/server/src/main.ts');
