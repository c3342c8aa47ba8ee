// The release run of pending points in a process of its own, for the test of two processes
// (modules/events/release-processes.test.ts). Arguments: database URL, the clock (ISO), lines per
// batch. Prints "batch <n>" after each batch, then the result as JSON (a lost lease as {"lost":true}).
import { databaseConfigFromUrl } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { ReleaseLeaseLostError, releasePendingPoints } from '../src/modules/events/release.ts';

const [url = '', clock = '', batch = '50'] = process.argv.slice(2);
const db = createDatabase(databaseConfigFromUrl(url));
try {
  const result = await releasePendingPoints(db, {
    now: () => new Date(clock),
    batchSize: Number(batch),
    afterBatch: ({ lines }) => void process.stdout.write(`batch ${lines}\n`),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  if (!(error instanceof ReleaseLeaseLostError)) throw error;
  process.stdout.write(`${JSON.stringify({ lost: true })}\n`);
} finally {
  await db.destroy();
}
