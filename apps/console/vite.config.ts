import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../web/precompress-plugin.ts';
import { buildStamp } from '../web/build-stamp.ts';
import { CONSOLE_BUILD_INPUTS } from './build-inputs.ts';

// The dev API (apps/server on port 3001) answers /api/console/v1 when asked for the console host.
const devApi = 'http://127.0.0.1:3001';
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);

/**
 * The staff console (decision 050): its own bundle, served under /console/ on CONSOLE_ORIGIN
 * only. Nothing here touches the participant app's build.
 */
export default defineConfig({
  root,
  base: '/console/',
  plugins: [react(), precompress(), buildStamp(CONSOLE_BUILD_INPUTS)],
  server: {
    port: 5174,
    proxy: { '/api/console': { target: devApi, headers: { host: 'console.localhost:3001' } } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
  },
});
