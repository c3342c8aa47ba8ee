import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import { MAX_BATCH_COUNT, MAX_CODE_VALUE } from '@rewards/contract/console-codes';
import {
  describePrintRun,
  listPrintRuns,
  mintCodes,
  planPrintRun,
  printRunCsv,
  storePrintRun,
  voidCodes,
} from '../../modules/ots/print-runs.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorActor } from './audit.ts';

export function registerCodes(program: Command): void {
  const codes = program.command('codes').description('on-the-spot codes: generate a print run, list a batch’s state, void codes');

  const generate = codes
    .command('generate')
    .description('make N new codes of one value; the plain codes go only to --out (the database keeps their hashes)')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--count <n>', `how many codes (1 to ${MAX_BATCH_COUNT})`)
    .requiredOption('--value <points>', `points each code credits (1 to ${MAX_CODE_VALUE})`)
    .requiredOption('--out <file.csv>', 'where to write the codes (must not exist yet)')
    .option('--expires <date>', 'last day the codes can be redeemed (YYYY-MM-DD, through the end of that day UTC, or an ISO 8601 time)')
    .option('--batch <name>', 'name of the print run (default: generated-<time>)')
    .option('--reason <text>', 'why, for the audit log');
  action<{ client?: string; count?: string; value?: string; out?: string; expires?: string; batch?: string; reason?: string }>(
    generate,
    async (db, { options, operator }) => {
      const client = await requireClient(db, options.client);
      const count = wholeNumber('--count', options.count, 1, MAX_BATCH_COUNT);
      const value = wholeNumber('--value', options.value, 1, MAX_CODE_VALUE);
      const now = new Date();
      // The rules of a print run are the module's, the console's too (decision 063).
      const run = planPrintRun({ count, value, expires: options.expires, batch: options.batch }, now);
      const { batch, expiresAt } = run;
      const out = options.out!;
      const codesList = mintCodes(count);

      // The file first, synced, then the database: a code never exists without its printout, and
      // a failed commit removes the file again. 'wx' refuses a file that exists.
      let fd: number;
      try {
        fd = openSync(out, 'wx');
      } catch (error) {
        const reason =
          (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists already; codes are never overwritten' : 'cannot be created';
        throw new CliError(`${out} ${reason}`);
      }
      try {
        writeSync(fd, printRunCsv(run, codesList));
        fsyncSync(fd);
        closeSync(fd);
        await storePrintRun(db, operatorActor(operator), client.id, run, codesList, now, options.reason);
      } catch (error) {
        rmSync(out, { force: true });
        throw error;
      }
      return {
        human: `Generated ${count} codes of ${value} points in batch "${batch}" of ${client.id}${expiresAt ? `, valid until ${expiresAt}` : ''}; the codes are in ${out} (and nowhere else).`,
        json: { client: client.id, batch, count, value, expiresAt, out },
      };
    },
  );

  const list = codes
    .command('list')
    .description(
      'the state of the print runs (or of one batch): unused, redeemed, void, expired; --json lists each code of a --batch by hint',
    )
    .requiredOption('--client <id>', 'the client')
    .option('--batch <name>', 'one print run');
  action<{ client?: string; batch?: string }>(list, async (db, { options }) => {
    const client = await requireClient(db, options.client);
    const now = new Date().toISOString();
    if (options.batch === undefined) return listBatches(await listPrintRuns(db, client.id, now), client.id);
    const run = await describePrintRun(db, client.id, options.batch, now);
    if (!run) throw new CliError(`No batch "${options.batch}" in ${client.id}`);
    const { counts, codes: items } = run;
    return {
      human: `Batch "${options.batch}" of ${client.id}: ${counts.total} codes, ${counts.unused} unused, ${counts.redeemed} redeemed, ${counts.void} void, ${counts.expired} expired.`,
      json: { client: client.id, batch: options.batch, ...counts, codes: items },
    };
  });

  const voidCommand = codes
    .command('void')
    .description(
      'withdraw unused codes: one by --code, one by --batch and --hint (its last four characters), or all unused codes of a --batch',
    )
    .requiredOption('--client <id>', 'the client')
    .option('--code <code>', 'the code (case, spaces and dashes do not matter)')
    .option('--batch <name>', 'the print run')
    .option('--hint <last4>', 'with --batch: the code ending in these four characters')
    .option('--reason <text>', 'why, for the audit log');
  action<{ client?: string; code?: string; batch?: string; hint?: string; reason?: string }>(
    voidCommand,
    async (db, { options, operator }) => {
      const client = await requireClient(db, options.client);
      if ((options.code === undefined) === (options.batch === undefined))
        throw new CliError('give either --code, or --batch (with --hint for one code of it)');
      if (options.hint !== undefined && options.batch === undefined) throw new CliError('--hint goes with --batch');
      const { subject, voided, expired } = await voidCodes(
        db,
        operatorActor(operator),
        client.id,
        options.code !== undefined
          ? { code: options.code }
          : { batch: options.batch!, ...(options.hint === undefined ? {} : { hint: options.hint }) },
        new Date(),
        options.reason,
      );
      return {
        human:
          voided === 0
            ? `Nothing to void (${subject}: no unused code).`
            : `Voided ${voided} code${voided === 1 ? '' : 's'} (${subject})${expired ? `, ${expired} of them already expired` : ''}.`,
        json: { client: client.id, subject, voided },
      };
    },
  );
}

function listBatches(batches: Awaited<ReturnType<typeof listPrintRuns>>, clientId: string) {
  const human =
    batches.length === 0
      ? `No codes in ${clientId}.`
      : batches
          .map(
            (b) =>
              `${(b.batch ?? '(no batch)').padEnd(28)} ${String(b.total).padStart(7)} codes  ${b.unused} unused, ${b.redeemed} redeemed, ${b.void} void, ${b.expired} expired`,
          )
          .join('\n');
  return { human, json: { client: clientId, batches } };
}
