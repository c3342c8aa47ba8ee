import { globSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress-plugin.ts';
import { buildStamp } from './build-stamp.ts';
import { firstScreenHints } from './first-screen-plugin.ts';

// The dev API (apps/server on port 3001) answers /api, serves client logos under /brand, the
// published catalog keys under /.well-known and the demo catalog under /demo-catalog.
const devApi = 'http://127.0.0.1:3001';
// Absolute, so that `vite build --config apps/web/vite.config.ts` from the repo root works too.
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);

const include = ['src/**/*.test.{ts,tsx}'];
// As the API tests (docs/decisions/060): a file that replaces a module (vi.mock) gets a module graph
// of its own; every other file shares its worker's jsdom and modules (30 CPU-s for the suite
// against 175 with a graph per file). setup.ts empties the DOM and storage after each test.
const mocking = globSync(include, { cwd: root }).filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(`${root}/${file}`, 'utf8')));
const component = {
  root,
  environment: 'jsdom' as const,
  setupFiles: ['src/test/setup.ts'],
  restoreMocks: true,
  // npm test runs these beside the API and browser lanes (docs/decisions/060): a component test
  // that takes 1 s alone can take several while it shares the 2 cores.
  testTimeout: 20_000,
};

export default defineConfig({
  root,
  plugins: [react(), firstScreenHints(['/features/auth/LoginPage.tsx', '/app/HomePage.tsx']), precompress(), buildStamp()],
  server: {
    port: 5173,
    proxy: { '/api': devApi, '/brand': devApi, '/demo-catalog': devApi, '/.well-known': devApi },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Keep the main chunk lean; pages arrive as their own chunks (React.lazy).
    target: 'es2022',
    // One style sheet for every page, loaded with the page: a page chunk then brings no style
    // sheet of its own, so opening or preloading it never re-styles the whole document (each
    // late style sheet was a long task on a slow phone, decision 030).
    cssCodeSplit: false,
    modulePreload: {
      // The first screens' scripts are hinted in index.html (first-screen-plugin.ts). A page
      // opened later finds its shared chunks preloaded already; adding <link> elements for them
      // at every dynamic import only cost main-thread time (decision 030).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
  },
  test: {
    name: 'web',
    root,
    projects: [
      { test: { ...component, name: 'web', include, exclude: mocking, isolate: false } },
      { test: { ...component, name: 'web-isolated', include: mocking.length > 0 ? mocking : ['no-such-file'] } },
    ],
  },
});
