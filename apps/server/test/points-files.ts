import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Db } from '../src/db/database.ts';
import { withSearchKeys } from '../src/modules/participants/search-keys.ts';

/**
 * Generated points files and the participants they name, for the import's tests and its
 * measurement (scripts/operator/generate-points.ts). Plain loops, no randomness from the clock:
 * the same arguments give the same file.
 */
export function generatedUsername(index: number): string {
  return `pt${String(index).padStart(7, '0')}`;
}

/** `count` participants pt0000000… in a client, skipping those already there; they cannot sign in. */
export async function addGeneratedParticipants(db: Db, clientId: string, count: number, now = new Date()): Promise<void> {
  const CHUNK = 1_000;
  for (let from = 0; from < count; from += CHUNK) {
    const rows = [];
    for (let index = from; index < Math.min(count, from + CHUNK); index += 1) {
      const username = generatedUsername(index);
      rows.push(
        withSearchKeys({
          id: `${clientId}-${username}`,
          client_id: clientId,
          username,
          username_key: username,
          email: `${username}@example.com`,
          first_name: 'Generated',
          last_name: username,
          // Not a hash of anything: nobody signs in as a generated participant.
          password_hash: '!',
          status: 'active',
          locale: 'en-US',
          account_number: `G${username}`,
          offers_merchandise: 1,
          offers_experiences: 1,
          ots_enabled: 1,
          privacy_ack_version: 0,
          balance: null,
          created_at: now.toISOString(),
        }),
      );
    }
    await db
      .insertInto('participants')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export interface PointsFileShape {
  lines: number;
  participants: number;
  /** external_id prefix: two files with different prefixes share no line. */
  prefix?: string;
  /** One line in this many takes points away (default 10); one in five of those is refused. */
  debitEvery?: number;
}

const DESCRIPTIONS = ['Monthly sales target', 'Quarterly bonus', 'Customer praise', 'Training completed', 'Team goal'];

/** Writes a points file of the canonical header; lines spread round-robin-ish over the participants. */
export async function writePointsFile(path: string, shape: PointsFileShape): Promise<void> {
  const out = createWriteStream(path);
  const prefix = shape.prefix ?? 'gen';
  const debitEvery = shape.debitEvery ?? 10;
  out.write('username,points,date,description,external_id\n');
  let chunk = '';
  for (let i = 0; i < shape.lines; i += 1) {
    // A multiplicative step visits the participants in a scattered order, like a real file.
    // A debit takes from the participant the line before credited (so most are covered); one
    // in five asks for far more than anyone has, and is refused.
    const debit = i % debitEvery === debitEvery - 1;
    const who = generatedUsername(((debit ? i - 1 : i) * 7919) % shape.participants);
    const points = debit ? (i % (debitEvery * 5) === debitEvery * 5 - 1 ? -1_000_000 : -(10 + (i % 7) * 10)) : 10 + (i % 50) * 10;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + (Math.floor(i / 28) % 10)).padStart(2, '0');
    chunk += `${who},${points},2026-${month}-${day},${DESCRIPTIONS[i % DESCRIPTIONS.length]},${prefix}-${i}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
}
