import type { Command } from 'commander';
import { recordAudit } from '../../modules/audit/service.ts';
import { clientLocales } from '../../modules/clients/service.ts';
import type { Db } from '../../db/database.ts';
import { CliError, operatorName, print, requireClient, withDatabase, type CommandResult, type GlobalOptions } from '../cli-context.ts';
import { openOutput, requireLocale, StatementWriter } from '../statement-export.ts';
import { requireParticipant } from './participants.ts';
import { operatorOrigin } from './audit.ts';

interface ExportOptions {
  client?: string;
  username?: string;
  all?: boolean;
  out?: string;
  locale?: string;
}

export function registerStatements(program: Command): void {
  const statements = program.command('statements').description("participants' statements, as the portal shows them");
  const exportCommand = statements
    .command('export')
    .description(
      'a statement as CSV, the rows, points, balances and descriptions of GET user/account/statement, in the columns of the ' +
        "portal's download (dates in UTC); --all writes every participant of the client in one file with a username column",
    )
    .option('--client <id>', 'the client (required)')
    .option('--username <name>', 'the participant (case ignored)')
    .option('--all', 'every participant of the client')
    .option('--out <file>', 'write the CSV here (default: standard output, with the summary on standard error)')
    .option(
      '--locale <code>',
      "descriptions and header in this locale (default: each participant's own; the header of --all: the client's default)",
    );
  // Not `action()`: without --out the CSV is stdout, and the summary goes to stderr instead.
  exportCommand.action(async () => {
    const global = exportCommand.optsWithGlobals<GlobalOptions>();
    const options = exportCommand.opts<ExportOptions>();
    const result = await withDatabase((db) => exportStatements(db, options, operatorName(global)));
    if (options.out) print(result, global.json === true);
    else process.stderr.write(`${global.json === true ? JSON.stringify(result.json) : result.human}\n`);
  });
}

async function exportStatements(db: Db, options: ExportOptions, operator: string): Promise<CommandResult> {
  const client = await requireClient(db, options.client);
  if ((options.all === true) === (options.username !== undefined)) throw new CliError('Give either --username <name> or --all');
  const offered = (await clientLocales(db, client.id)).map((l) => l.code);
  const forcedLocale = options.locale === undefined ? undefined : requireLocale(offered, options.locale);
  const participant = options.username === undefined ? undefined : await requireParticipant(db, client, options.username);
  const headerLocale = forcedLocale ?? participant?.locale ?? client.default_locale;
  const out = await openOutput(options.out);
  const writer = await StatementWriter.open(db, client, offered, {
    forcedLocale,
    headerLocale: offered.includes(headerLocale) ? headerLocale : client.default_locale,
    withUsername: participant === undefined,
    out,
  });
  if (participant) await writer.write(participant, false);
  else await writer.writeAll();
  await writer.close();
  const subject = participant?.username ?? '*';
  await db.transaction().execute((trx) =>
    recordAudit(trx, {
      clientId: client.id,
      actor: operator,
      actorKind: 'operator',
      action: 'statements.export',
      subject,
      details: { ...writer.totals, out: options.out ?? 'stdout', locale: forcedLocale ?? 'participant' },
      origin: operatorOrigin,
    }),
  );
  const human = `Exported ${writer.totals.rows} entries of ${writer.totals.participants} participant(s) of ${client.id}${options.out ? ` to ${options.out}` : ''}.`;
  const json = { clientId: client.id, username: participant?.username ?? null, out: options.out ?? null, ...writer.totals };
  return { human, json };
}
