/**
 * A points file for `rewards points import`, and the participants it names, to measure the
 * import (docs/decisions/022):
 *   node scripts/operator/generate-points.ts --lines 1000000 --participants 100000 --out /tmp/points.csv \
 *     [--database file:/tmp/points.db --client acme]
 * With --database, the participants pt0000000… are added to the client (the demo is seeded first
 * when the database is empty), so that every line names someone.
 */
import { parseArgs } from 'node:util';
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemoIfEmpty } from '../../apps/server/src/db/seed/demo.ts';
import { addGeneratedParticipants, writePointsFile } from '../../apps/server/test/points-files.ts';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    participants: { type: 'string', default: '100000' },
    out: { type: 'string' },
    prefix: { type: 'string', default: 'gen' },
    database: { type: 'string' },
    client: { type: 'string', default: 'acme' },
  },
});
const lines = Number(values.lines);
const participants = Number(values.participants);
if (!Number.isSafeInteger(lines) || !Number.isSafeInteger(participants) || participants < 1)
  throw new Error('--lines and --participants are whole numbers');

if (values.database) {
  const db = createDatabase(databaseConfigFromUrl(values.database));
  await migrateToLatest(db);
  await seedDemoIfEmpty(db);
  const started = performance.now();
  await addGeneratedParticipants(db, values.client, participants);
  await db.destroy();
  console.log(`${participants} participants in ${values.client} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
if (values.out) {
  const started = performance.now();
  await writePointsFile(values.out, { lines, participants, prefix: values.prefix });
  console.log(`${lines} lines in ${values.out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
