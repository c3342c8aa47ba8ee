// A process that posts many credits concurrently through the ledger writer on a SQLite file
// and prints each entry's id as soon as its posting resolved (that is, acknowledged). The crash
// test in writer.test.ts kills it mid-stream and checks that every printed entry was kept.
import { createDatabase } from '../../db/database.ts';
import { appendLedgerEntry } from './store.ts';
import { writeToLedger } from './service.ts';

const [path = '', clientId = '', participantId = ''] = process.argv.slice(2);
const db = createDatabase({ dialect: 'sqlite', path });
process.stdout.write('ready\n');

async function worker(): Promise<void> {
  for (;;) {
    const id = await writeToLedger(db, (trx) =>
      appendLedgerEntry(trx, {
        clientId,
        participantId,
        occurredAt: new Date().toISOString(),
        description: 'Crash test',
        amount: 1,
        kind: 'award',
      }),
    );
    process.stdout.write(`${id}\n`);
  }
}
await Promise.all(Array.from({ length: 16 }, () => worker()));
