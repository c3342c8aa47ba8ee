import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * A command parses, calls a module's service and prints (decision 089): eslint.config.js refuses
 * the query builder under apps/server/src/cli. Linted in memory at the paths where the code would
 * sit; no database, so the same on both engines.
 */
const root = resolve(import.meta.dirname, '..', '..', '..', '..');
const eslint = new ESLint({ cwd: root });

async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return result!.messages.filter((m) => m.message.includes('decision 089')).map((m) => m.message);
}

const querying = `import type { Db } from '../../db/database.ts';
export const names = (db: Db) => db.selectFrom('clients').select('name').execute();
export const rename = (db: Db) => db.updateTable('clients').set({ name: 'x' }).execute();
`;

describe('no query builder in the commands', () => {
  it('refuses a query-builder call, an sql`` template and an import of kysely in a command', async () => {
    expect(await refusals('apps/server/src/cli/commands/clients.ts', querying)).toHaveLength(2);
    expect(await refusals('apps/server/src/cli/clients/describe.ts', querying)).toHaveLength(2);
    const raw = "import { sql } from 'kysely';\nexport const now = sql`select 1`;\n";
    expect(await refusals('apps/server/src/cli/cli-context.ts', raw)).toHaveLength(2);
    expect(
      await refusals(
        'apps/server/src/cli/commands/admins.ts',
        "import type { Transaction } from 'kysely';\nexport type T = Transaction<never>;\n",
      ),
    ).toHaveLength(1);
  });

  it('allows the same code in a module, and a command calling a service', async () => {
    expect(await refusals('apps/server/src/modules/clients/store.ts', querying)).toEqual([]);
    const calling = `import type { Db } from '../../db/database.ts';
import { readClient } from '../../modules/clients/service.ts';
export const find = (db: Db) => readClient(db, 'acme');
`;
    expect(await refusals('apps/server/src/cli/commands/clients.ts', calling)).toEqual([]);
  });
});
