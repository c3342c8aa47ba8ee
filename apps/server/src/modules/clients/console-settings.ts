import type { ConsoleClientSettings } from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { Actor } from '../participants/operator-service.ts';
import { auditSettingsChange } from './settings-audit.ts';
import { readClientColumns, updateClient } from './store.ts';

/** The most a program manager may set: the contract's bound (ConsoleClientSettings). */
export const MAX_AGENT_DAILY_LIMIT = 100_000_000;

/** A client's console settings (docs/decisions/048); 404 for an unknown client. */
export async function consoleSettings(db: Db, clientId: string): Promise<ConsoleClientSettings> {
  const row = await readClientColumns(db, clientId, ['agent_daily_adjustment_limit']);
  if (!row) throw errors.notFound();
  return { agentDailyAdjustmentLimit: row.agent_daily_adjustment_limit };
}

/**
 * Sets the points (credits and debits together) one support agent may adjust per day in the
 * client, with an audit entry (from, to, reason) in the same transaction: the console's PUT
 * settings and `rewards clients update --agent-daily-limit` alike. An unchanged value writes
 * nothing (auditId null). Today's counts stay: a lower limit refuses what would pass it.
 */
export async function setAgentDailyLimit(
  db: Db,
  actor: Actor,
  clientId: string,
  limit: number,
  reason?: string,
): Promise<{ from: number; to: number; auditId: string | null }> {
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_AGENT_DAILY_LIMIT)
    throw errors.validation(`the agents' daily adjustment limit must be a whole number from 0 to ${MAX_AGENT_DAILY_LIMIT}`);
  return db.transaction().execute(async (trx) => {
    const row = await readClientColumns(trx, clientId, ['agent_daily_adjustment_limit']);
    if (!row) throw errors.notFound();
    const from = row.agent_daily_adjustment_limit;
    if (from === limit) return { from, to: limit, auditId: null };
    await updateClient(trx, clientId, { agent_daily_adjustment_limit: limit });
    const auditId = await auditSettingsChange(trx, actor, clientId, { agentDailyAdjustmentLimit: { from, to: limit } }, reason);
    return { from, to: limit, auditId };
  });
}
