import type { Command } from 'commander';
import { EVENTS_HEADER_HELP } from '../../modules/imports/events.ts';
import { RUN_BATCH } from '../../modules/imports/run.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { runImportCommand, type ImportCommandReport } from '../import-job.ts';
import { formatImportReport } from '../import-report.ts';

/**
 * `rewards events import`: a CSV of events (decision 099), each earning through the client's rules
 * as POST events would, run as the console's import job in this process (cli/import-job.ts,
 * decision 091): staged, previewed (`--dry-run` stops there and shows each line's points),
 * confirmed by the operator and run in batches; once per event id, so a re-run (also after a kill)
 * credits nothing twice. A `return` line takes back what its original earned (an event sent
 * before, or a line above it in the file), as POST events does (decision 098).
 */

/** The `events` command group: made by whichever of its commands registers first (this one, or the release run's). */
export function eventsCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'events') ??
    program.command('events').description('events participants did (purchases, courses…), earning through the rules')
  );
}

/** Lines of the preview shown on the terminal (the job keeps 200; --json has them all). */
const LINES_SHOWN = 20;

export function registerEventsImport(program: Command): void {
  const command = eventsCommand(program)
    .command('import')
    .description(
      `import a CSV of events (${EVENTS_HEADER_HELP}), each earning through the rules in force at its occurredAt, as POST events would; once per event id, so a re-run (also after a kill) credits nothing twice. Runs as the console's import job (the client's one job at a time)`,
    )
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--file <csv>', 'the CSV file')
    .option('--dry-run', "preview: each line's points and the totals; post nothing")
    .option('--yes', 'import it: credit the points (without it, or --dry-run, nothing is done)')
    .option('--rejects <file>', 'write the rejected lines (line,reason) to this CSV')
    .option('--batch-size <n>', 'lines per transaction', String(RUN_BATCH));
  action<{ client?: string; file?: string; rejects?: string; batchSize: string; dryRun?: boolean; yes?: boolean }>(
    command,
    async (db, { options, operator }) => {
      const client = await requireClient(db, options.client);
      const batchSize = wholeNumber('--batch-size', options.batchSize, 1, 200_000);
      const common = {
        kind: 'events' as const,
        clientId: client.id,
        file: options.file ?? '',
        operator,
        batchSize,
        ...(options.rejects ? { rejectsPath: options.rejects } : {}),
      };
      // A run credits points through the rules: the operator says so (--yes), or previews first (--dry-run).
      if (!options.dryRun && !options.yes)
        throw new CliError(
          `Add --dry-run to see what ${options.file ?? 'the file'} would earn, or --yes to import it; nothing was imported`,
        );
      const report = await runImportCommand(db, { ...common, dryRun: options.dryRun === true });
      return { human: describe(report.dryRun ? 'Events (dry run: nothing posted)' : 'Events', report), json: report };
    },
  );
}

function describe(what: string, report: ImportCommandReport): string {
  const lines = [
    formatImportReport(what, report) + (report.rejected > report.rejects.length ? `\n  (${report.rejected} rejected lines in all)` : ''),
    `  points: ${report.pointsIn} credited, ${report.pendingPoints ?? 0} pending` +
      (report.pointsOut > 0 ? `, ${report.pointsOut} taken back by returns` : ''),
  ];
  const preview = report.eventsPreview;
  if (preview) {
    for (const rule of preview.rules)
      lines.push(`  rule ${rule.ruleId} (${rule.name}): ${rule.points} points, ${rule.pendingPoints} pending, on ${rule.events} events`);
    if (preview.budgetRanOut.length > 0) lines.push(`  budget spent by this file: ${preview.budgetRanOut.join(', ')}`);
    for (const line of preview.lines.slice(0, LINES_SHOWN)) {
      const pending =
        line.pendingPoints > 0 ? ` (+${line.pendingPoints} pending)` : line.pendingPoints < 0 ? ` (${line.pendingPoints} pending)` : '';
      lines.push(
        `  line ${line.line} ${line.id ?? ''} ${line.username ?? ''}: ${line.outcome}, ${line.points} points${pending}: ${line.detail}`,
      );
    }
    if (report.lines > LINES_SHOWN)
      lines.push(`  … the first ${LINES_SHOWN} lines of ${report.lines} (--json: the first ${preview.lines.length})`);
  }
  return lines.join('\n');
}
