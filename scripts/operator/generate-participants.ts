/**
 * A participants file for `rewards participants import`, of any size, to measure the import:
 *   node scripts/operator/generate-participants.ts <count> <out.csv> [--changed <n>]
 * Usernames gen000001…, account numbers from 5,000,001, locales of the demo client (en-US,
 * fr-FR, ar) in turn. The same count always gives the same file; `--changed n` alters the last
 * name of every n-th line, so a re-run shows updates among the unchanged. Streamed: written
 * line by line with back-pressure, whatever the count.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { changed: { type: 'string' } } });
const count = Number(positionals[0]);
const out = positionals[1];
const changedEvery = values.changed ? Number(values.changed) : 0;
if (!Number.isSafeInteger(count) || count < 1 || !out) {
  process.stderr.write('usage: node scripts/operator/generate-participants.ts <count> <out.csv> [--changed <n>]\n');
  process.exit(2);
}

const LOCALES = ['en-US', 'fr-FR', 'ar'];
const FIRST = ['Ada', 'Bea', 'Chloé', 'Dmitri', 'Émile', 'Fatima', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Ólafur', 'ليلى'];
const LAST = ['Lovelace', 'Müller', 'Nakamura', "O'Brien", 'Okafor', 'Dubois', 'Haddad', 'Smith, Jr.', 'García', 'Kowalski'];
const PROGRAMS = ['Sales Incentive 2026', 'Gold Club', 'Service Awards'];

const file = createWriteStream(out);
const csv = stringify({
  header: true,
  columns: [
    'username',
    'first_name',
    'last_name',
    'email',
    'locale',
    'account_number',
    'merchandise',
    'experiences',
    'ots',
    'programs',
    'status',
  ],
});
csv.pipe(file);
for (let i = 1; i <= count; i += 1) {
  const username = `gen${String(i).padStart(6, '0')}`;
  const last = LAST[i % LAST.length]!;
  const row = [
    username,
    FIRST[i % FIRST.length]!,
    changedEvery > 0 && i % changedEvery === 0 ? `${last}-Changed` : last,
    `${username}@example.com`,
    LOCALES[i % LOCALES.length]!,
    String(5_000_000 + i),
    i % 2 === 0 ? 'yes' : 'no',
    i % 3 === 0 ? 'true' : 'false',
    i % 5 === 0 ? '1' : '0',
    PROGRAMS.slice(0, i % (PROGRAMS.length + 1)).join('|'),
    i % 10 === 0 ? 'active' : '',
  ];
  if (!csv.write(row)) await new Promise((resolve) => csv.once('drain', resolve));
}
csv.end();
await finished(file);
process.stdout.write(`${count} participants written to ${out}\n`);
