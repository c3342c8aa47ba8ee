/**
 * `npm run dev`: the API on :3001 (restarting on change with node --watch) and Vite on
 * :5173, which proxies /api and /brand to it. Ctrl-C stops both; if one dies, so does the other.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch-path=apps/server/src', '--watch-path=packages/contract/src', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    // WEB_DIST empty: the API only, Vite serves the app.
    env: { ...env, PORT: '3001', HOST: '127.0.0.1', WEB_DIST: '' },
    stdio: 'inherit',
  }),
  spawn('vite', ['--port', '5173', '--strictPort'], { cwd: join(ROOT, 'apps', 'web'), env, stdio: 'inherit' }),
];

let stopping = false;
function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // Give them a moment to close cleanly, then make sure.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, 3000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
for (const child of children) child.on('exit', (code) => stopAll(code ?? 1));
console.log('API http://127.0.0.1:3001  ·  web http://localhost:5173  (Ctrl-C stops both)');
