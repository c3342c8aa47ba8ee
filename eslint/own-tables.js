// A module's code reads and writes its own module's tables (issue 30 §3, decision 053): what it
// needs of another module it asks that module's service for. The import rules of eslint.config.js
// see which files a module imports; this rule sees which tables its SQL names, in the query
// builder (`selectFrom('participants')`, joins, `insertInto`, …) and in SQL text (`FROM x`, `JOIN x`).
// Which module owns a table is read from apps/server/src/db/schema.ts: a table's type is imported
// from `modules/<owner>/tables.ts` (decision 052).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SCHEMA = join(import.meta.dirname, '..', 'apps', 'server', 'src', 'db', 'schema.ts');

/** table name → owning module, from the schema's imports and its `Database` interface. */
function tableOwners() {
  const schema = readFileSync(SCHEMA, 'utf8');
  const typeOwner = new Map();
  for (const [, names, owner] of schema.matchAll(/import type \{([^}]*)\} from '\.\.\/modules\/([\w-]+)\/tables\.ts'/g)) {
    for (const name of names.match(/\w+/g) ?? []) typeOwner.set(name, owner);
  }
  const owners = new Map();
  const database = schema.slice(schema.indexOf('export interface Database'));
  for (const [, table, type] of database.matchAll(/^\s*(\w+): (\w+);/gm)) {
    if (typeOwner.has(type)) owners.set(table, typeOwner.get(type));
  }
  return owners;
}

const BUILDER_CALLS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'mergeInto',
  'using',
]);
// Upper case anywhere, or any case in a text that begins as a statement does: the hand-written
// bulk statements (ledger/bulk.ts, expiry/lot-store.ts) are lower case, and an English sentence
// ("points from participants") is neither.
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE)\s+"?([a-z_]+)/g;
const SQL_TABLE_ANY_CASE = /\b(?:from|join|into|update)\s+"?([a-z_]+)/gi;
const STATEMENT_START = /^\s*(?:select|insert|update|delete|with)\b/i;

const ownTables = {
  meta: {
    type: 'problem',
    docs: { description: "A module's code names only its own module's tables." },
    schema: [],
    messages: {
      foreign:
        "'{{table}}' belongs to the {{owner}} module: ask that module's service (or a read model it owns), not its table (issue 30 §3).",
    },
  },
  create(context) {
    const path = context.filename.replaceAll('\\', '/');
    const module = /\/apps\/server\/src\/modules\/([\w-]+)\//.exec(path)?.[1];
    if (!module) return {};
    const owners = (ownTables.owners ??= tableOwners());
    const check = (node, table) => {
      const owner = owners.get(table);
      if (!owner || owner === module) return;
      context.report({ node, messageId: 'foreign', data: { table, owner } });
    };
    const text = (node) => {
      if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
      if (node?.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? '').join(' ');
      return undefined;
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        const isTableRef =
          BUILDER_CALLS.has(name) || (name === 'table' && callee.object.type === 'Identifier' && callee.object.name === 'sql');
        if (!isTableRef) return;
        const first = text(node.arguments[0]);
        if (first) check(node, first.trim().split(/\s+/)[0]);
      },
      'Literal, TemplateLiteral'(node) {
        const value = text(node);
        if (!value) return;
        for (const [, table] of value.matchAll(STATEMENT_START.test(value) ? SQL_TABLE_ANY_CASE : SQL_TABLE)) check(node, table);
      },
    };
  },
};

export default { rules: { 'own-tables': ownTables } };
