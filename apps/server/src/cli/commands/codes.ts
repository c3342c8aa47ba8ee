import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/database.ts';
import type { OtsCode } from '../../modules/ots/tables.ts';
import { recordAudit } from '../../modules/audit/store.ts';
import { normaliseOtsCode, OTS_ALPHABET, otsCodeHash } from '../../modules/ots/code.ts';
import { insertOtsCodes, newOtsCodeRows } from '../../modules/ots/store.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/** 16 characters of a 25-letter alphabet: log2(25^16) = 74 random bits, read as XXXX-XXXX-XXXX-XXXX. */
export const CODE_LENGTH = 16;
const GROUP = 4;
const MAX_COUNT = 100_000;
const MAX_VALUE = 10_000_000;
const MAX_BATCH_NAME = 100;
/** Codes per INSERT (11 parameters each). */
const INSERT_ROWS = 500;

/** A new code: uniform over the alphabet (bytes past the last whole multiple of 25 are drawn again). */
export function newCode(): string {
  const limit = 256 - (256 % OTS_ALPHABET.length);
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(CODE_LENGTH * 2)) {
      if (byte < limit && code.length < CODE_LENGTH) code += OTS_ALPHABET[byte % OTS_ALPHABET.length];
    }
  }
  return code.match(new RegExp(`.{1,${GROUP}}`, 'g'))!.join('-');
}

type CodeState = 'unused' | 'redeemed' | 'void' | 'expired';

/** The state an operator cares about: an unused code past its date is expired. */
function stateOf(code: Pick<OtsCode, 'status' | 'expires_at'>, now: string): CodeState {
  if (code.status === 'unused' && code.expires_at !== null && code.expires_at <= now) return 'expired';
  return code.status;
}

export function registerCodes(program: Command): void {
  const codes = program.command('codes').description('on-the-spot codes: generate a print run, list a batch’s state, void codes');

  const generate = codes
    .command('generate')
    .description('make N new codes of one value; the plain codes go only to --out (the database keeps their hashes)')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--count <n>', `how many codes (1 to ${MAX_COUNT})`)
    .requiredOption('--value <points>', `points each code credits (1 to ${MAX_VALUE})`)
    .requiredOption('--out <file.csv>', 'where to write the codes (must not exist yet)')
    .option('--expires <date>', 'last day the codes can be redeemed (YYYY-MM-DD, through the end of that day UTC, or an ISO 8601 time)')
    .option('--batch <name>', 'name of the print run (default: generated-<time>)');
  action<{ client?: string; count?: string; value?: string; out?: string; expires?: string; batch?: string }>(
    generate,
    async (db, { options, operator }) => {
      const client = await requireClient(db, options.client);
      const count = wholeNumber('--count', options.count, 1, MAX_COUNT);
      const value = wholeNumber('--value', options.value, 1, MAX_VALUE);
      const now = new Date();
      const expiresAt = options.expires === undefined ? null : expiryOf(options.expires);
      if (expiresAt !== null && expiresAt <= now.toISOString()) throw new CliError('--expires is in the past');
      const batch = batchName(options.batch) ?? `generated-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`;
      const out = options.out!;

      const plain = new Set<string>();
      while (plain.size < count) plain.add(newCode());
      const codesList = [...plain];
      const rows = newOtsCodeRows(
        client.id,
        codesList.map((code) => ({ code, value, expiresAt, batch })),
        now,
      );

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
        writeSync(
          fd,
          stringify(
            codesList.map((code) => ({ code, value, expires_at: expiresAt ?? '', batch })),
            { header: true, columns: ['code', 'value', 'expires_at', 'batch'] },
          ),
        );
        fsyncSync(fd);
        closeSync(fd);
        await db.transaction().execute(async (trx) => {
          const taken = await trx
            .selectFrom('ots_codes')
            .select('id')
            .where('client_id', '=', client.id)
            .where('batch', '=', batch)
            .limit(1)
            .executeTakeFirst();
          if (taken) throw new CliError(`Batch "${batch}" exists already in ${client.id}; name the new print run differently`);
          for (let from = 0; from < rows.length; from += INSERT_ROWS) await insertOtsCodes(trx, rows.slice(from, from + INSERT_ROWS));
          await recordAudit(
            trx,
            {
              clientId: client.id,
              actor: operator,
              actorKind: 'operator',
              action: 'codes.generate',
              subject: batch,
              details: { count, value, expiresAt },
              origin: operatorOrigin,
            },
            now,
          );
        });
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
    if (options.batch === undefined) return listBatches(db, client.id, now);
    const codesOfBatch = await db
      .selectFrom('ots_codes as c')
      .leftJoin('participants as p', (join) => join.onRef('p.id', '=', 'c.redeemed_by').onRef('p.client_id', '=', 'c.client_id'))
      .select(['c.code_hint', 'c.value', 'c.status', 'c.expires_at', 'c.redeemed_at', 'c.created_at', 'p.username'])
      .where('c.client_id', '=', client.id)
      .where('c.batch', '=', options.batch)
      .orderBy('c.code_hint')
      .execute();
    if (codesOfBatch.length === 0) throw new CliError(`No batch "${options.batch}" in ${client.id}`);
    const counts = { total: codesOfBatch.length, unused: 0, redeemed: 0, void: 0, expired: 0 };
    const items = codesOfBatch.map((c) => {
      const state = stateOf(c, now);
      counts[state] += 1;
      return {
        hint: c.code_hint,
        value: c.value,
        state,
        expiresAt: c.expires_at,
        redeemedAt: c.redeemed_at,
        redeemedBy: c.username ?? null,
      };
    });
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
    .option('--hint <last4>', 'with --batch: the code ending in these four characters');
  action<{ client?: string; code?: string; batch?: string; hint?: string }>(voidCommand, async (db, { options, operator }) => {
    const client = await requireClient(db, options.client);
    if ((options.code === undefined) === (options.batch === undefined))
      throw new CliError('give either --code, or --batch (with --hint for one code of it)');
    if (options.hint !== undefined && options.batch === undefined) throw new CliError('--hint goes with --batch');
    const now = new Date();
    const at = now.toISOString();
    let query = db.selectFrom('ots_codes').select(['id', 'code_hint', 'batch', 'status', 'expires_at']).where('client_id', '=', client.id);
    let subject: string;
    if (options.code !== undefined) {
      const normalised = normaliseOtsCode(options.code);
      if (!normalised) throw new CliError('--code is empty');
      query = query.where('code_hash', '=', otsCodeHash(normalised));
      subject = `…${normalised.slice(-4)}`;
    } else {
      query = query.where('batch', '=', options.batch!);
      subject = options.batch!;
      if (options.hint !== undefined) {
        const hint = normaliseOtsCode(options.hint);
        query = query.where('code_hint', '=', hint);
        subject = `${options.batch} …${hint}`;
      }
    }
    const found = await query.execute();
    if (found.length === 0) throw new CliError(`No such code in ${client.id}`);
    if (options.hint !== undefined && found.length > 1)
      throw new CliError(`${found.length} codes of batch ${options.batch} end in ${options.hint}; void them by --code`);
    const single = options.code !== undefined || options.hint !== undefined;
    if (single && found[0]!.status === 'redeemed')
      throw new CliError(`Code …${found[0]!.code_hint} was redeemed already; it cannot be voided`);

    const voided = await db.transaction().execute(async (trx) => {
      const ids = found.map((c) => c.id);
      let changed = 0;
      for (let from = 0; from < ids.length; from += INSERT_ROWS) {
        // Only unused codes: one redeemed meanwhile stays redeemed.
        const result = await trx
          .updateTable('ots_codes')
          .set({ status: 'void' })
          .where('client_id', '=', client.id)
          .where('status', '=', 'unused')
          .where('id', 'in', ids.slice(from, from + INSERT_ROWS))
          .executeTakeFirst();
        changed += Number(result.numUpdatedRows);
      }
      if (changed > 0) {
        await recordAudit(
          trx,
          {
            clientId: client.id,
            actor: operator,
            actorKind: 'operator',
            action: 'codes.void',
            subject,
            details: { voided: changed },
            origin: operatorOrigin,
          },
          now,
        );
      }
      return changed;
    });
    const expired = found.filter((c) => stateOf(c, at) === 'expired').length;
    return {
      human:
        voided === 0
          ? `Nothing to void (${subject}: no unused code).`
          : `Voided ${voided} code${voided === 1 ? '' : 's'} (${subject})${expired ? `, ${expired} of them already expired` : ''}.`,
      json: { client: client.id, subject, voided },
    };
  });
}

async function listBatches(db: Db, clientId: string, now: string) {
  const rows = await db
    .selectFrom('ots_codes')
    .select((eb) => [
      'batch',
      eb.fn.countAll<string | number>().as('total'),
      eb.fn
        .sum<string | number>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'unused'), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('unused'),
      eb.fn.sum<string | number>(eb.case().when('status', '=', 'redeemed').then(1).else(0).end()).as('redeemed'),
      eb.fn.sum<string | number>(eb.case().when('status', '=', 'void').then(1).else(0).end()).as('void'),
      eb.fn.min<string>('created_at').as('created'),
    ])
    .where('client_id', '=', clientId)
    .groupBy('batch')
    .orderBy('created')
    .execute();
  const batches = rows.map((r) => {
    const total = Number(r.total);
    const unused = Number(r.unused);
    const redeemed = Number(r.redeemed);
    const voided = Number(r.void);
    return { batch: r.batch, createdAt: r.created, total, unused, redeemed, void: voided, expired: total - unused - redeemed - voided };
  });
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

/** A day means through its end (UTC): "valid until 2026-12-31" includes the 31st. */
function expiryOf(value: string): string {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const end = new Date(`${text}T23:59:59.999Z`);
    if (!Number.isNaN(end.getTime()) && end.toISOString().slice(0, 10) === text) return end.toISOString();
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return at.toISOString();
  }
  throw new CliError('--expires must be a date such as 2026-12-31 or 2026-12-31T18:00:00Z');
}

function batchName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.trim();
  if (!name || name.length > MAX_BATCH_NAME) throw new CliError(`--batch must be 1 to ${MAX_BATCH_NAME} characters`);
  return name;
}
