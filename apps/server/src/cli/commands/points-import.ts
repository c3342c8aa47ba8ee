import type { Command } from 'commander';
import { RUN_BATCH } from '../../modules/imports/run.ts';
import { action, requireClient, wholeNumber } from '../cli-context.ts';
import { runImportCommand } from '../import-job.ts';
import { formatImportReport } from '../import-report.ts';

/**
 * `rewards points import`: the console's import job, run in this process (cli/import-job.ts,
 * docs/decisions/091): staged, previewed, confirmed by the operator and run in batches, each one
 * transaction; idempotent on external_id, so a re-run (also after a kill) posts nothing twice.
 */
export function registerPointsImport(points: Command): void {
  const command = points
    .command('import')
    .description(
      "post a CSV of points lines (username,points,date,description,external_id in any order), each line one entry; idempotent on external_id, so a re-run (also after a kill) posts nothing twice. Runs as the console's import job (the client's one job at a time)",
    )
    .argument('<file>', 'the CSV file')
    .requiredOption('--client <id>', 'the client')
    .option('--rejects <file>', 'write the rejected lines (line,reason) to this CSV')
    .option('--dry-run', 'check the file against the ledger and say what would be posted; post nothing')
    .option('--batch-size <n>', 'lines per transaction', String(RUN_BATCH));
  action<{ client?: string; rejects?: string; batchSize: string; dryRun?: boolean }>(command, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const batchSize = wholeNumber('--batch-size', options.batchSize, 1, 200_000);
    const report = await runImportCommand(db, {
      kind: 'points',
      clientId: client.id,
      file: args[0] ?? '',
      operator,
      batchSize,
      dryRun: options.dryRun === true,
      ...(options.rejects ? { rejectsPath: options.rejects } : {}),
    });
    return {
      human:
        formatImportReport(report.dryRun ? 'Points (dry run: nothing posted)' : 'Points', report) +
        (report.rejected > report.rejects.length ? `\n  (${report.rejected} rejected lines in all)` : ''),
      json: report,
    };
  });
}
