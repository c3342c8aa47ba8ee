import { join } from 'node:path';

/**
 * Where the shipped translation tables are, for the server, which reads and merges them at start
 * (apps/server/src/modules/i18n/base-bundles.ts). Browsers import single tables instead:
 * `@rewards/translations/en-US.json`.
 */
export const bundlesDir = join(import.meta.dirname, 'bundles');
