import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of eslint.config.js (decision 053), run through ESLint's own API on small
 * files that exist only in memory, at the paths where they would sit. No database: the rules
 * are the same whichever engine the server uses.
 */
const root = resolve(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

/** The layering messages for `code` placed at `path` (other rules' findings are not asked about). */
async function layering(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const use = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

describe('layering in lint', () => {
  it('fails a web feature that imports another feature, and allows ui/, api/ and its own files', async () => {
    expect(await layering('apps/web/src/features/home/Tile.tsx', use('../shops/ShopTiles.tsx'))).toEqual([
      expect.stringContaining('A feature does not import another feature'),
    ]);
    expect(await layering('apps/web/src/features/home/Tile.tsx', use('../../features/ots/OtsBox.tsx'))).toHaveLength(1);
    expect(await layering('apps/web/src/features/home/Tile.tsx', use('../../ui/Button.tsx'))).toEqual([]);
    expect(await layering('apps/web/src/features/home/Tile.tsx', use('../../api/client.ts'))).toEqual([]);
    expect(await layering('apps/web/src/features/home/Tile.tsx', use('./PointsSection.tsx'))).toEqual([]);
    // The app composes features; a test may render several.
    expect(await layering('apps/web/src/app/Page.tsx', use('../features/shops/ShopTiles.tsx'))).toEqual([]);
    expect(await layering('apps/web/src/features/ots/OtsBox.test.tsx', use('../shops/ShopTiles.tsx'))).toEqual([]);
  });

  it('fails a console feature that imports another feature', async () => {
    expect(await layering('apps/console/src/features/audit/AuditPage.tsx', use('../participants/queries.ts'))).toEqual([
      expect.stringContaining('A feature does not import another feature'),
    ]);
    expect(await layering('apps/console/src/features/audit/AuditPage.tsx', use('../../ui/AuditTable.tsx'))).toEqual([]);
  });

  it('fails the web app or the console importing the server, its JSON included', async () => {
    expect(await layering('apps/web/src/state/store.ts', use('../../../server/src/config.ts'))).toEqual([
      expect.stringContaining('never import the server'),
    ]);
    expect(await layering('apps/console/src/api/client.ts', use('../../../server/src/modules/staff/roles.ts'))).toHaveLength(1);
    expect(await layering('apps/web/src/features/auth/Login.tsx', use('../../../../server/src/http/api-error.ts'))).toHaveLength(1);
    // A bundle's neighbour that is code is still the server.
    expect(await layering('apps/web/src/app/startup.ts', use('../../../server/src/modules/i18n/base-bundles.ts'))).toHaveLength(1);
    expect(await layering('apps/web/src/app/startup.ts', use('../../../server/src/modules/i18n/bundles/en-US.json'))).toHaveLength(1);
    expect(await layering('apps/web/src/app/startup.ts', use('@rewards/server/package.json'))).toHaveLength(1);
    // The translation tables are a package of their own (decision 059).
    expect(await layering('apps/web/src/app/startup.ts', use('@rewards/translations/en-US.json'))).toEqual([]);
    expect(await layering('apps/web/src/app/startup.ts', use('@rewards/contract/paths'))).toEqual([]);
    // A dynamic import is an import too.
    const later = (specifier: string) => `export const load = () => import('${specifier}');\n`;
    expect(await layering('apps/web/src/app/startup.ts', later('../../../server/src/config.ts'))).toEqual([
      expect.stringContaining('never import the server'),
    ]);
    expect(await layering('apps/web/src/app/startup.ts', later('../../../server/src/modules/i18n/bundles/en-US.json'))).toHaveLength(1);
    expect(await layering('apps/web/src/app/startup.ts', later('@rewards/translations/en-US.json'))).toEqual([]);
    // So is a Vite glob, in a test too.
    const glob = (pattern: string) => `export const files = import.meta.glob('${pattern}', { eager: true });\n`;
    expect(await layering('apps/web/src/test/fixtures.ts', glob('../../../server/src/modules/i18n/bundles/*.json'))).toEqual([
      expect.stringContaining('never import the server'),
    ]);
    expect(await layering('apps/web/src/test/fixtures.ts', glob('../../../../packages/translations/bundles/*.json'))).toEqual([]);
  });

  it("fails a server module that reaches into another module's store, and allows its service and tables", async () => {
    expect(await layering('apps/server/src/modules/ots/service.ts', use('../participants/store.ts'))).toEqual([
      expect.stringContaining("calls another module's service"),
    ]);
    expect(await layering('apps/server/src/modules/ots/service.ts', use('../audit/trail-store.ts'))).toHaveLength(1);
    expect(await layering('apps/server/src/modules/ots/service.ts', use('../participants/service.ts'))).toEqual([]);
    expect(await layering('apps/server/src/modules/ots/service.ts', use('../participants/tables.ts'))).toEqual([]);
    expect(await layering('apps/server/src/modules/ots/service.ts', use('./store.ts'))).toEqual([]);
    // A test may arrange rows through any store.
    expect(await layering('apps/server/src/modules/ots/routes.test.ts', use('../ledger/store.ts'))).toEqual([]);
  });

  it("fails a command, the seed or the demo catalog reaching into a module's store, and allows its services", async () => {
    expect(await layering('apps/server/src/cli/commands/points.ts', use('../../modules/ledger/store.ts'))).toEqual([
      expect.stringContaining("call a module's service"),
    ]);
    expect(await layering('apps/server/src/cli/participants-import.ts', use('../modules/participants/operator-store.ts'))).toHaveLength(1);
    expect(await layering('apps/server/src/cli/clients/apply.ts', use('../../modules/audit/trail-store.ts'))).toHaveLength(1);
    expect(await layering('apps/server/src/db/seed/demo-ots.ts', use('../../modules/ots/store.ts'))).toHaveLength(1);
    expect(await layering('apps/server/src/demo-catalog/routes.ts', use('../modules/catalog/store.ts'))).toHaveLength(1);
    expect(await layering('apps/server/src/cli/commands/points.ts', use('../../modules/ledger/service.ts'))).toEqual([]);
    expect(await layering('apps/server/src/cli/commands/codes.ts', use('../../modules/ots/print-runs.ts'))).toEqual([]);
    expect(await layering('apps/server/src/cli/commands/codes.ts', use('../../modules/ots/tables.ts'))).toEqual([]);
    // A command's own helpers are not stores, and a test may arrange rows through any store.
    expect(await layering('apps/server/src/cli/commands/points.ts', use('./points-lines.ts'))).toEqual([]);
    expect(await layering('apps/server/src/cli/points.test.ts', use('../modules/ledger/store.ts'))).toEqual([]);
  });

  /** What the own-tables rule says of `code` at `path`. */
  async function tables(path: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
    return result!.messages.filter((m) => m.ruleId === 'rewards/own-tables').map((m) => m.message);
  }

  it("fails a module's code naming another module's table, in the query builder or in SQL text", async () => {
    const read = (table: string) => `export const f = (db: any) => db.selectFrom('${table}').selectAll().execute();\n`;
    expect(await tables('apps/server/src/modules/webhooks/store.ts', read('participants'))).toEqual([
      expect.stringContaining("'participants' belongs to the participants module"),
    ]);
    expect(await tables('apps/server/src/modules/webhooks/deliveries.ts', read('ledger_entries as l'))).toHaveLength(1);
    const join =
      "export const f = (db: any) => db.selectFrom('webhook_endpoints as e').innerJoin('clients as c', 'c.id', 'e.client_id');\n";
    expect(await tables('apps/server/src/modules/webhooks/store.ts', join)).toEqual([
      expect.stringContaining("'clients' belongs to the clients module"),
    ]);
    const text =
      "import { sql } from 'kysely';\nexport const f = (db: any) => sql`SELECT 1 FROM ledger_entries WHERE x = 1`.execute(db);\n";
    expect(await tables('apps/server/src/modules/webhooks/store.ts', text)).toHaveLength(1);
    // A hand-written statement in lower case (as the bulk paths write them) is SQL too.
    const lower = 'export const f = (list: string) => `update participants set balance = 0 where id in (${list})`;\n';
    expect(await tables('apps/server/src/modules/webhooks/store.ts', lower)).toHaveLength(1);
    // Its own tables, English that is not SQL, and tests are fine.
    expect(await tables('apps/server/src/modules/webhooks/store.ts', read('webhook_endpoints'))).toEqual([]);
    expect(await tables('apps/server/src/modules/webhooks/store.ts', "export const s = 'Import participants from a file';\n")).toEqual([]);
    expect(await tables('apps/server/src/modules/webhooks/store.ts', "export const s = 'Points moved from participants';\n")).toEqual([]);
    expect(await tables('apps/server/src/modules/webhooks/store.test.ts', read('participants'))).toEqual([]);
  });

  it('fails the contract importing any app', async () => {
    expect(await layering('packages/contract/src/user.ts', use('../../../apps/server/src/config.ts'))).toEqual([
      expect.stringContaining('imports none of them'),
    ]);
    expect(await layering('packages/contract/src/user.ts', use('./errors.ts'))).toEqual([]);
  });
});
