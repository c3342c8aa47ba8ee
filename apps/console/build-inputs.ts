/**
 * What the console's build reads (paths from the repository root): `npm start` rebuilds the
 * console only when one of these changed since its last build (decision 015's stamp, decision 050).
 */
export const CONSOLE_BUILD_INPUTS = [
  'apps/console/src',
  'apps/console/index.html',
  'apps/console/vite.config.ts',
  'apps/console/build-inputs.ts',
  'apps/console/package.json',
  'apps/web/precompress-plugin.ts',
  'apps/web/build-stamp.ts',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
];
