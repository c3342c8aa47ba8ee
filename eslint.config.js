// One lint config for the monorepo. Non-type-aware rules only: fast, and tsc does the typing.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['**/dist/**', '**/node_modules/**', '**/data/**', 'screenshots/**', 'test-results/**', '.tmp/**', '**/coverage/**']),
  { files: ['**/*.js'], extends: [js.configs.recommended] },
  { files: ['**/*.{ts,tsx,mts,cts}'], extends: [tseslint.configs.recommended] },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // `_unused` marks a deliberately ignored argument or binding.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Hooks rules for the React app only (the browser tests and the server have no hooks).
  { files: ['apps/web/src/**/*.{ts,tsx}', 'apps/console/src/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat.recommended] },
]);
