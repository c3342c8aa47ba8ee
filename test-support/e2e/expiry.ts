/**
 * Points that expire, arranged in the browser tests' and screenshots' database (issue 19): a
 * participant of her own (so nobody else's balance moves), who signs in with the demo password,
 * with points due in 20 days, more in 200 days, and some that already expired.
 */
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { appendLedgerEntry } from '../../apps/server/src/modules/ledger/service.ts';
import { addExpiryParticipant, creditWithExpiry } from '../../apps/server/src/modules/expiry/test-support.ts';

/** The local day `days` from today, YYYY-MM-DD. */
export function dayFromToday(days: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export interface ExpiringParticipant {
  username: string;
  /** Day and amount of each expiry to come, soonest first. */
  expiries: Array<{ date: string; points: number }>;
  /** The points of the expiry entry already in her history. */
  expired: number;
}

/** Adds the participant (a new username each call) and her points; resolves once committed. */
export async function addExpiringParticipant(databaseUrl: string, username: string, locale = 'en-US'): Promise<ExpiringParticipant> {
  const db = createDatabase(databaseConfigFromUrl(databaseUrl));
  try {
    const participantId = await addExpiryParticipant(db, { username, locale, passwordFrom: 'demo' });
    const expiries = [
      { date: dayFromToday(20), points: 1_250 },
      { date: dayFromToday(200), points: 400 },
    ];
    // Already expired: earned a year ago, its day long over, closed by an expiry entry as the run posts it (decision 057).
    await creditWithExpiry(db, { participantId, points: 75, earnedOn: dayFromToday(-400), expiresOn: dayFromToday(-35) });
    await db.transaction().execute(async (trx) => {
      await appendLedgerEntry(trx, {
        clientId: 'acme',
        participantId,
        occurredAt: `${dayFromToday(-34)}T00:00:00.000Z`,
        description: 'Points expired',
        descriptionKey: 'ledger.pointsExpired',
        amount: -75,
        kind: 'expiry',
      });
    });
    // The entry took its points from the soonest lot, the only one yet: that lot is closed.
    for (const expiry of expiries)
      await creditWithExpiry(db, { participantId, points: expiry.points, earnedOn: dayFromToday(-30), expiresOn: expiry.date });
    return { username, expiries, expired: 75 };
  } finally {
    await db.destroy();
  }
}
