import type { Db } from '../db/database.ts';
import type { Client } from '../modules/clients/tables.ts';
import type { CommandResult } from './cli-context.ts';
import { runImportCommand } from './import-job.ts';
import { formatImportReport } from './import-report.ts';

/**
 * `participants import`: the console's import job, run in this process (cli/import-job.ts,
 * docs/decisions/091). Matching is on the username key, so a re-run updates what changed, leaves
 * the rest and never duplicates; an import stopped half-way is finished by running it again. New
 * participants get an unusable password (see unusablePasswordHash): pending ones activate, active
 * ones reset their password.
 */
export async function importParticipants(
  db: Db,
  client: Client,
  path: string,
  options: { operator: string; rejectsPath?: string; dryRun?: boolean },
): Promise<CommandResult> {
  const report = await runImportCommand(db, {
    kind: 'participants',
    clientId: client.id,
    file: path,
    operator: options.operator,
    dryRun: options.dryRun === true,
    ...(options.rejectsPath ? { rejectsPath: options.rejectsPath } : {}),
  });
  const { sessionsEnded, ...counts } = report as typeof report & { sessionsEnded?: number };
  return {
    human:
      formatImportReport(report.dryRun ? 'Participants (dry run: nothing written)' : 'Participants', report) +
      (report.rejected > report.rejects.length ? `\n  (${report.rejected} rejected lines in all)` : ''),
    json: { ...counts, sessionsEnded: sessionsEnded ?? 0 },
  };
}
