// A process that commits many small transactions concurrently through the portal's SQLite
// driver and prints the id of each one as soon as its transaction call resolved (that is,
// acknowledged). The crash test kills it mid-stream and checks every printed id was kept.
import { Kysely, sql } from 'kysely';
import { nodeSqliteDialect } from '../src/db/node-sqlite-dialect.ts';

interface Tables {
  acks: { id: number; note: string };
}

const db = new Kysely<Tables>({ dialect: nodeSqliteDialect(process.argv[2] ?? '') });
await sql`create table if not exists acks (id integer primary key, note text not null)`.execute(db);
process.stdout.write('ready\n');

let next = 0;
async function worker(): Promise<void> {
  for (;;) {
    const id = next++;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('acks')
        .values({ id, note: `ack ${id}` })
        .execute();
    });
    process.stdout.write(`${id}\n`);
  }
}
await Promise.all(Array.from({ length: 16 }, () => worker()));
