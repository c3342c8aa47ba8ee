import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleImportPaths as paths, type ImportJob, type ImportJobList } from '@rewards/contract/console-imports';
import { dialects } from '../../../test/databases.ts';
import { takeLease } from '../jobs/service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../staff/test-support.ts';
import { importLeaseName, runImportJob } from './run.ts';

const HEADER = 'username,points,date,description,external_id';

describe.each(dialects)('the console imports API on %s', (dialect) => {
  let t: ConsoleTestApp;
  let pm: string;
  let auditor: string;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    pm = (await enrolStaff(t, 'pm@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] })).cookie;
    auditor = (await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] })).cookie;
  });
  afterAll(() => t.close());

  const upload = (csv: string, query = 'kind=points&fileName=june.csv', cookie = pm) =>
    t.console('POST', `${paths.imports('acme')}?${query}`, { cookie, headers: { 'content-type': 'text/csv' }, payload: csv });
  /** Polls the job (each poll one request) until it left the status, with a deadline. */
  async function past(jobId: string, status: ImportJob['status']): Promise<ImportJob> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = (await t.console('GET', paths.job('acme', jobId), { cookie: auditor })).json<ImportJob>();
      if (job.status !== status) return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const ended = (jobId: string) => past(jobId, 'running');
  /** Uploaded, and its preview (computed by the route's own runner) ready. */
  async function uploaded(csv: string, query?: string): Promise<ImportJob> {
    const reply = await upload(csv, query);
    expect(reply.statusCode).toBe(201);
    const job = await past(reply.json<ImportJob>().id, 'previewing');
    expect(job.status).toBe('staged');
    return job;
  }

  it('uploads a CSV body as a stream, answers before the preview, previews it in the background, and runs it once confirmed; every role reads it', async () => {
    const reply = await upload(
      [HEADER, 'demo,40,2026-06-01,June,h-1', 'demo,x,2026-06-01,June,h-2', 'ghost,1,2026-06-01,June,h-3'].join('\n'),
    );
    expect(reply.statusCode).toBe(201);
    expect(reply.json<ImportJob>()).toMatchObject({
      status: 'previewing',
      kind: 'points',
      fileName: 'june.csv',
      lines: 3,
      createdBy: 'pm@acme.test',
      preview: null,
      rejects: [],
    });
    const job = await past(reply.json<ImportJob>().id, 'previewing');
    expect(job).toMatchObject({ status: 'staged', lines: 3, done: 0 });
    expect(job.preview).toMatchObject({ added: 1, rejected: 2, unknownUsernames: 1, pointsIn: 40 });
    expect(job.rejects.map((r) => r.line)).toEqual([3, 4]);

    const rejects = await t.console('GET', paths.rejects('acme', job.id), { cookie: auditor });
    expect(rejects.statusCode).toBe(200);
    expect(rejects.headers['content-type']).toContain('text/csv');
    expect(rejects.body.trim().split('\r\n')).toEqual(['line,reason', expect.stringMatching(/^3,/), '4,unknown username ghost']);

    expect(
      (await t.console('POST', paths.confirm('acme', job.id), { cookie: auditor, body: { reason: 'not mine to do' } })).statusCode,
    ).toBe(403);
    expect((await t.console('POST', paths.confirm('acme', job.id), { cookie: pm, body: { reason: 'x' } })).statusCode).toBe(400);
    const confirmed = await t.console('POST', paths.confirm('acme', job.id), { cookie: pm, body: { reason: 'June points' } });
    expect(confirmed.statusCode).toBe(200);
    expect((await ended(job.id)).result).toMatchObject({ added: 1, rejected: 2 });
    const list = (await t.console('GET', paths.imports('acme'), { cookie: auditor })).json<ImportJobList>();
    expect(list.jobs[0]).toMatchObject({ id: job.id, status: 'done', done: 3 });
    // Confirming again is refused plainly.
    const again = await t.console('POST', paths.confirm('acme', job.id), { cookie: pm, body: { reason: 'June points again' } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('is done');
  });

  it('of 100 confirm requests at once, for five staged files, starts exactly one job; the others get 409', async () => {
    const staged: ImportJob[] = [];
    for (let i = 0; i < 5; i += 1)
      staged.push(await uploaded(`${HEADER}\ndemo,1,2026-06-04,June,burst-${i}\n`, `kind=points&fileName=burst-${i}.csv`));
    // Their leases held elsewhere, so that no run ends (and frees the slot) while the burst is under way.
    const leases = await Promise.all(staged.map((job) => takeLease(t.database.db, importLeaseName(job.id), { holder: 'elsewhere' })));
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.console('POST', paths.confirm('acme', staged[i % 5]!.id), { cookie: pm, body: { reason: `burst ${i}` } }),
      ),
    );
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBe(1);
    expect(statuses.filter((s) => s === 409).length).toBe(99);
    const winner = replies.find((r) => r.statusCode === 200)!.json<ImportJob>();
    for (const reply of replies.filter((r) => r.statusCode === 409)) expect(reply.json<{ message: string }>().message).toContain(winner.id);
    const running = await t.database.db
      .selectFrom('jobs')
      .select('id')
      .where('client_id', '=', 'acme')
      .where('status', '=', 'running')
      .execute();
    expect(running).toEqual([{ id: winner.id }]);
    // Freed, the job runs: here, or in the route's own run if that one is still on its way to the lease.
    for (const lease of leases) await lease!.end();
    expect(['done', 'busy', 'not-running']).toContain(await runImportJob(t.database.db, winner.id));
    expect((await ended(winner.id)).status).toBe('done');
  });

  it('refuses what it cannot import with a 400 that says why, keeping nothing', async () => {
    const before = (await t.console('GET', paths.imports('acme'), { cookie: pm })).json<ImportJobList>().jobs.length;
    const wrongHeader = await upload('user,points\ndemo,1\n');
    expect(wrongHeader.statusCode).toBe(400);
    expect(wrongHeader.json<{ message: string }>().message).toMatch(/^unknown column\(s\) user.*; nothing was imported$/);
    expect((await upload('')).statusCode).toBe(400);
    expect((await upload(`${HEADER}\n`, 'kind=coupons&fileName=x.csv')).statusCode).toBe(400);
    const json = await t.console('POST', `${paths.imports('acme')}?kind=points&fileName=x.csv`, { cookie: pm, body: { not: 'csv' } });
    expect(json.statusCode).toBe(400);
    expect((await t.console('GET', paths.job('acme', 'no-such-job'), { cookie: pm })).statusCode).toBe(404);
    expect((await t.console('GET', paths.rejects('acme', 'no-such-job'), { cookie: pm })).statusCode).toBe(404);
    expect((await t.console('GET', paths.imports('acme'), { cookie: pm })).json<ImportJobList>().jobs.length).toBe(before);
  });

  it('answers a confirm while another job of the client runs with 409 naming it', async () => {
    const first = await uploaded(`${HEADER}\ndemo,1,2026-06-02,June,c-1\n`, 'kind=points&fileName=first.csv');
    const second = await uploaded(`${HEADER}\ndemo,1,2026-06-02,June,c-2\n`, 'kind=points&fileName=second.csv');
    // The slot taken as the first's confirm takes it, without its run (that is the service test's part).
    await t.database.db
      .insertInto('job_slots')
      .values({ client_id: 'acme', job_id: first.id, taken_at: new Date().toISOString() })
      .execute();
    await t.database.db.updateTable('jobs').set({ status: 'running', confirmed_by: 'pm@acme.test' }).where('id', '=', first.id).execute();
    const refused = await t.console('POST', paths.confirm('acme', second.id), { cookie: pm, body: { reason: 'second file' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      `Another import is running for this client: "first.csv" (job ${first.id}), confirmed by pm@acme.test. Wait until it ends, then confirm again; nothing was started`,
    );
    expect((await t.console('GET', paths.job('acme', second.id), { cookie: pm })).json<ImportJob>().status).toBe('staged');
    await t.database.db.deleteFrom('job_slots').where('client_id', '=', 'acme').execute();
  });

  it('discards a previewed import for a program manager (reason optional), refuses an auditor, and answers 409 once it is not staged', async () => {
    const job = await uploaded(`${HEADER}\ndemo,1,2026-06-05,June,x-1\n`, 'kind=points&fileName=thrown.csv');
    expect((await t.console('POST', paths.discard('acme', job.id), { cookie: auditor, body: {} })).statusCode).toBe(403);
    expect((await t.console('POST', paths.discard('acme', job.id), { cookie: pm, body: { reason: 'x'.repeat(501) } })).statusCode).toBe(
      400,
    );
    const discarded = await t.console('POST', paths.discard('acme', job.id), { cookie: pm, body: { reason: 'wrong file' } });
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json<ImportJob>()).toMatchObject({ id: job.id, status: 'discarded', fileName: 'thrown.csv' });
    const again = await t.console('POST', paths.discard('acme', job.id), { cookie: pm, body: {} });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      `This import ("thrown.csv", job ${job.id}) was discarded already: only an import being previewed or awaiting confirmation can be discarded; nothing was changed`,
    );
    expect((await t.console('POST', paths.confirm('acme', job.id), { cookie: pm, body: { reason: 'after all' } })).statusCode).toBe(409);
    const list = (await t.console('GET', paths.imports('acme'), { cookie: auditor })).json<ImportJobList>();
    expect(list.jobs.find((j) => j.id === job.id)).toMatchObject({ status: 'discarded' });

    // Without a reason: audited with none. A running or ended job: 409.
    const second = await uploaded(`${HEADER}\ndemo,1,2026-06-05,June,x-2\n`, 'kind=points&fileName=second.csv');
    expect((await t.console('POST', paths.discard('acme', second.id), { cookie: pm, body: {} })).statusCode).toBe(200);
    const entry = await t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'imports.discard')
      .where('subject', '=', 'second.csv')
      .executeTakeFirstOrThrow();
    expect(entry.actor).toBe('pm@acme.test');
    expect(JSON.parse(entry.details)).toMatchObject({ job: second.id, lines: 1, reason: null });
    const third = await uploaded(`${HEADER}\ndemo,1,2026-06-05,June,x-3\n`, 'kind=points&fileName=third.csv');
    expect((await t.console('POST', paths.confirm('acme', third.id), { cookie: pm, body: { reason: 'this one' } })).statusCode).toBe(200);
    expect((await ended(third.id)).status).toBe('done');
    const late = await t.console('POST', paths.discard('acme', third.id), { cookie: pm, body: {} });
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toContain('is done');
    expect((await t.console('POST', paths.discard('acme', 'no-such-job'), { cookie: pm, body: {} })).statusCode).toBe(404);
  });
});
