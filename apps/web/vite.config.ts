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
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // npm test runs these beside the API and browser lanes (docs/decisions/060): a component test
    // that takes 1 s alone can take several while it shares the 2 cores.
    testTimeout: 20_000,
  },
});
