import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Decision 080: a migration only expands (new tables, nullable columns or columns with a default,
 * new indexes), so the processes of the version before run beside the new ones on the migrated
 * database during a rolling upgrade. A contraction — a drop, a rename, NOT NULL without a
 * default — waits for a later release, once no version still running uses what it removes, and
 * says so: `// contracts (decision 080): <why no running version needs it>`. Migrations up to
 * 037 came before the rule. No database: this reads the migrations' sources.
 */
const FIRST_UNDER_THE_RULE = 38;
const MIGRATIONS = join(import.meta.dirname, 'migrations');
const MARK = /\/\/ contracts \(decision 080\): \S/;

/** What in a migration's `up` takes something away from the version before (a text check: Kysely's builders and raw SQL). */
function contractions(source: string): string[] {
  const start = source.indexOf('export async function up');
  const end = source.indexOf('export async function down');
  const up = source.slice(start < 0 ? 0 : start, end > start ? end : undefined);
  const found: string[] = [];
  const patterns: Array<[RegExp, string]> = [
    [/\.(dropTable|dropColumn|renameColumn|renameTo|dropConstraint|dropView)\(/g, 'a drop or rename'],
    [/\.setNotNull\(\)/g, 'NOT NULL on an existing column'],
    [/\b(drop\s+(table|column|view|constraint)|rename\s+(column|to)|set\s+not\s+null)\b/gi, 'a drop, rename or NOT NULL in SQL'],
  ];
  for (const [pattern, what] of patterns) for (const match of up.matchAll(pattern)) found.push(`${what}: ${match[0]}`);
  // A column added to an existing table NOT NULL without a default: the earlier version's inserts lack it.
  for (const chain of up.split(/(?=\.alterTable\()/).filter((part) => part.startsWith('.alterTable(')))
    for (const column of chain.matchAll(/\.addColumn\(([^;]*?)\)\s*(?=\.addColumn|\.execute|$)/gs))
      if (/notNull\(\)/.test(column[1]!) && !/defaultTo\(/.test(column[1]!))
        found.push(`NOT NULL without a default: addColumn(${column[1]!.split(',')[0]})`);
  return found;
}

describe('migrations only expand (decision 080)', () => {
  it('finds the contractions in a migration, and only in its up', () => {
    const up = (body: string) =>
      `export async function up(db) {\n${body}\n}\nexport async function down(db) {\n  await db.schema.dropTable('t').execute();\n}\n`;
    expect(
      contractions(up("await db.schema.createTable('t').addColumn('id', 'text', (c) => c.primaryKey().notNull()).execute();")),
    ).toEqual([]);
    expect(contractions(up("await db.schema.alterTable('t').addColumn('note', 'text').execute();"))).toEqual([]);
    expect(
      contractions(up("await db.schema.alterTable('t').addColumn('n', 'integer', (c) => c.notNull().defaultTo(0)).execute();")),
    ).toEqual([]);
    expect(contractions(up("await db.schema.createIndex('t_idx').on('t').column('n').execute();"))).toEqual([]);
    expect(contractions(up("await db.schema.alterTable('t').addColumn('n', 'integer', (c) => c.notNull()).execute();"))).toHaveLength(1);
    expect(contractions(up("await db.schema.alterTable('t').dropColumn('old').execute();"))).toHaveLength(1);
    expect(contractions(up("await db.schema.alterTable('t').renameColumn('a', 'b').execute();"))).toHaveLength(1);
    expect(contractions(up("await db.schema.dropTable('t').execute();"))).toHaveLength(1);
    expect(contractions(up("await db.schema.alterTable('t').alterColumn('n', (c) => c.setNotNull()).execute();"))).toHaveLength(1);
    expect(contractions(up('await sql`alter table t drop column old`.execute(db);'))).toHaveLength(1);
  });

  it(`holds for every migration from ${FIRST_UNDER_THE_RULE} on, but those that say why they may contract`, () => {
    const files = readdirSync(MIGRATIONS).filter(
      (f) => /^\d{3}-.*\.ts$/.test(f) && !f.endsWith('.test.ts') && Number(f.slice(0, 3)) >= FIRST_UNDER_THE_RULE,
    );
    const offending = files
      .map((file) => ({ file, source: readFileSync(join(MIGRATIONS, file), 'utf8') }))
      .filter(({ source }) => !MARK.test(source))
      .map(({ file, source }) => ({ file, contractions: contractions(source) }))
      .filter((f) => f.contractions.length > 0);
    expect(offending).toEqual([]);
  });
});
