import type { Transaction } from 'kysely';
import type { Database } from '../schema.ts';

/** What each capability's part of the demo seed gets: the open transaction and who exists. */
export interface DemoSeedContext {
  trx: Transaction<Database>;
  clientId: string;
  now: Date;
  /** Participant ids by username, for the six participants of the README. */
  participantIds: ReadonlyMap<string, string>;
  /** An argon2id hash of the demo password, for participants a part adds itself. */
  demoPasswordHash: string;
}
