// The expiry run in a process of its own, for the tests of two processes and of kill -9
// (modules/expiry/run-processes.test.ts). Arguments: database URL, the day, the clock (ISO),
// participants per batch, and "hang" to stop for good after the first batch has committed, so
// the test can kill it exactly half-way. Prints "batch <n>" after each batch, then the result.
import { databaseConfigFromUrl } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { expirePoints } from '../src/modules/expiry/run.ts';

const [url = '', asOf = '', clock = '', batch = '50', hang = ''] = process.argv.slice(2);
const db = createDatabase(databaseConfigFromUrl(url));
const result = await expirePoints(db, {
  asOf,
  now: () => new Date(clock),
  batchSize: Number(batch),
  afterBatch: async ({ participants }) => {
    process.stdout.write(`batch ${participants}\n`);
    // Kept alive by a timer (a bare pending promise would let the process end) until killed.
    if (hang === 'hang') await new Promise(() => setInterval(() => {}, 60_000));
  },
});
process.stdout.write(`${JSON.stringify(result)}\n`);
await db.destroy();
