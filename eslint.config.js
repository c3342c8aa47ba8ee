// One lint config for the monorepo. Non-type-aware rules only: fast, and tsc does the typing.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import ownTables from './eslint/own-tables.js';

// The layering of docs/ARCHITECTURE.md, as import patterns per folder (decision 053). Every
// folder that a rule covers is flat (features/<name>/*, modules/<name>/*), so a specifier alone
// tells where it leads: from features/a/x.tsx, `../b/…` is the feature b. ESLint applies one set
// of options per rule and file, so each block below lists every pattern that holds for it.
const webNeverImportsServer = {
  // No exception, data included: the translation tables both sides read are packages/translations.
  regex: String.raw`^@rewards/server|(^|/)server/`,
  message:
    'The web app and the console never import the server: share wire types through packages/contract, texts through packages/translations.',
};
const featureImportsNoOtherFeature = {
  regex: String.raw`^\.\./(?!\.)|(^|/)features/`,
  message: 'A feature does not import another feature: move the shared part to ui/ (or api/), or compose the features in app/.',
};
const moduleReachesNoOtherStore = {
  regex: String.raw`^\.\./[\w-]+/([\w-]+-)?store\.ts$`,
  message: "A module calls another module's service (service.ts or another named file), never its store.",
};
const callerReachesNoStore = {
  regex: String.raw`(^|/)modules/[\w-]+/([\w-]+-)?store\.ts$`,
  message: "The CLI, the seed and the demo catalog call a module's service (service.ts or another named file), never its store.",
};
// A command parses, calls a module's service and prints (decision 089): no query builder in cli/.
const commandWritesNoSql =
  "A command parses, calls a module's service and prints: SQL and the query builder live in the modules (decision 089).";
const cliImportsNoQueryBuilder = { regex: String.raw`^kysely$`, message: commandWritesNoSql };
const cliCallsNoQueryBuilder = {
  'no-restricted-syntax': [
    'error',
    {
      selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
      message: commandWritesNoSql,
    },
    { selector: "TaggedTemplateExpression[tag.name='sql']", message: commandWritesNoSql },
  ],
};
const contractImportsNoApp = {
  regex: String.raw`(^|/)apps/|^@rewards/(server|web|console)`,
  message: 'packages/contract is imported by the apps and imports none of them.',
};
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
// `no-restricted-imports` reads static imports only; an `import()` of the server, or a Vite
// `import.meta.glob` over its files, is caught here (esquery's regex cannot hold a slash, hence \x2F).
const serverSpecifier = String.raw`/^@rewards\x2Fserver|(^|\x2F)server\x2F/`;
const noServerImportExpression = {
  'no-restricted-syntax': [
    'error',
    { selector: `ImportExpression[source.value=${serverSpecifier}]`, message: webNeverImportsServer.message },
    {
      selector: `CallExpression[callee.object.type='MetaProperty'][callee.property.name='glob'] Literal[value=${serverSpecifier}]`,
      message: webNeverImportsServer.message,
    },
  ],
};

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
  // Layering (decision 053). Tests may assemble several features or arrange rows through a
  // store; the rules hold for the code that ships.
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/console/src/**/*.{ts,tsx}'],
    rules: { ...restrict(webNeverImportsServer), ...noServerImportExpression },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}', 'apps/console/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing.ts'],
    rules: restrict(webNeverImportsServer, featureImportsNoOtherFeature),
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support.ts', '**/*-test-support.ts'],
    plugins: { rewards: ownTables },
    rules: { ...restrict(moduleReachesNoOtherStore), 'rewards/own-tables': 'error' },
  },
  {
    // The server's other callers of the modules: commands parse, call the services and print.
    files: ['apps/server/src/cli/**/*.ts', 'apps/server/src/db/**/*.ts', 'apps/server/src/demo-catalog/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support.ts', '**/*-test-support.ts'],
    rules: restrict(callerReachesNoStore),
  },
  {
    // Commands parse, call the services and print: no SQL of their own (decisions 089, 091).
    files: ['apps/server/src/cli/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support.ts', '**/*-test-support.ts'],
    rules: { ...restrict(callerReachesNoStore, cliImportsNoQueryBuilder), ...cliCallsNoQueryBuilder },
  },
  { files: ['packages/contract/**/*.ts'], rules: restrict(contractImportsNoApp) },
]);
