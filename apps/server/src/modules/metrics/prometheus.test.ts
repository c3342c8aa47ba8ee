// Decision 079: a real Prometheus (Debian's prometheus package) scrapes a real portal process on
// its METRICS_PORT, evaluates deploy/alerts.yml against it, and promtool finds nothing to say
// about a scrape, the rules or their unit tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseUrlOf } from '../../../test/cli.ts';
import { createTestDatabase, dialects } from '../../../test/databases.ts';
import { freePort } from '../../../test/ports.ts';
import { exited, startServer } from '../../../test/server-process.ts';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const DEPLOY = join(import.meta.dirname, '..', '..', '..', '..', '..', 'deploy');
const ALERTS = join(DEPLOY, 'alerts.yml');

/** A tool run to its end, with what it wrote; `input` goes to its standard input. */
function run(command: string, args: string[], input?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(input ?? '');
  return exited(child).then((code) => ({ code, output }));
}

/** Asks `check` again (every 200 ms) until it returns something, or fails with its last answer after `ms`. */
async function poll<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Vector {
  status: string;
  data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

/** Prometheus in its own process: its own port, configuration and storage in `dir`, scraping `target` every second. */
async function startPrometheus(
  dir: string,
  target: string,
): Promise<{ base: string; child: ChildProcess; query(q: string): Promise<Vector> }> {
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${JSON.stringify(ALERTS)}`,
      'scrape_configs:',
      '  - job_name: rewards',
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
      '',
    ].join('\n'),
  );
  const child = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = `${log}${chunk.toString()}`.slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  await poll('Prometheus ready', async () => {
    if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}:\n${log}`);
    return (await fetch(`${base}/-/ready`)).ok || undefined;
  });
  return {
    base,
    child,
    query: async (q) => (await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`)).json() as Promise<Vector>,
  };
}

describe('promtool', () => {
  it('finds the alert rules valid and their unit tests passing', async () => {
    const check = await run(PROMTOOL, ['check', 'rules', ALERTS]);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain('SUCCESS: 9 rules found');
    const unit = await run(PROMTOOL, ['test', 'rules', join(DEPLOY, 'alerts.test.yml')]);
    expect(unit.code, unit.output).toBe(0);
  });
});

// A portal process started from source and a Prometheus: their own deadlines, not the suite's 20 s.
describe.each(dialects)('a real Prometheus scraping the portal on %s', { timeout: 240_000 }, (dialect) => {
  it('sees the target up and queries its metrics; promtool finds the scrape clean; the rules evaluate', async () => {
    const database = await createTestDatabase(dialect);
    const dir = mkdtempSync(join(tmpdir(), 'rewards-prometheus-'));
    const metricsPort = await freePort();
    const server = await startServer(databaseUrlOf(database), { METRICS_PORT: String(metricsPort), DATA_DIR: join(dir, 'portal') });
    let prometheus: ChildProcess | undefined;
    try {
      // A little traffic, and the public port knows no /metrics.
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      expect(text).toContain('rewards_database_up 1');
      const lint = await run(PROMTOOL, ['check', 'metrics'], text);
      expect(lint, lint.output).toEqual({ code: 0, output: '' });

      const started = await startPrometheus(dir, `127.0.0.1:${metricsPort}`);
      prometheus = started.child;
      const { base, query } = started;
      const up = await poll('the target up', async () => {
        const result = (await query('up{job="rewards"}')).data.result[0];
        return result?.value[1] === '1' ? result : undefined;
      });
      expect(up.metric.instance).toBe(`127.0.0.1:${metricsPort}`);
      const one = async (q: string) => poll(q, async () => (await query(q)).data.result[0]?.value[1]);
      expect(await one('rewards_database_up')).toBe('1');
      expect(await one('rewards_build_info{version="0.0.0"}')).toBe('1');
      expect(Number(await one('rewards_http_request_duration_seconds_count{route="/healthz", status="200"}'))).toBeGreaterThanOrEqual(1);
      expect(Number(await one('process_resident_memory_bytes'))).toBeGreaterThan(10_000_000);
      expect(await one('rewards_mail_outbox_pending')).toBe('0');
      if (dialect === 'sqlite') expect(Number(await one('rewards_sqlite_filesystem_free_bytes'))).toBeGreaterThan(0);
      else expect(await one('rewards_database_pool_max_connections')).toBe('10');
      // The portal's expiry ran at start: the rule that watches it has a series to read.
      expect(Number(await one('rewards_expiry_last_run_timestamp_seconds{outcome="done"}'))).toBeGreaterThan(Date.now() / 1000 - 600);

      // Every rule of deploy/alerts.yml evaluated against the real series without an error.
      type Rules = { data: { groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> } };
      const rules = await poll('the rules evaluated', async () => {
        const all = ((await (await fetch(`${base}/api/v1/rules`)).json()) as Rules).data.groups.flatMap((group) => group.rules);
        return all.length > 0 && all.every((rule) => rule.health !== 'unknown') ? all : undefined;
      });
      expect(rules.map((rule) => [rule.name, rule.health, rule.lastError ?? ''])).toEqual(rules.map((rule) => [rule.name, 'ok', '']));
      expect(rules).toHaveLength(9);
      type Alerts = { data: { alerts: Array<{ labels: { alertname: string }; state: string }> } };
      const alerts = ((await (await fetch(`${base}/api/v1/alerts`)).json()) as Alerts).data.alerts;
      expect(alerts.filter((alert) => alert.state === 'firing')).toEqual([]);
    } finally {
      if (prometheus && prometheus.exitCode === null) {
        const gone = exited(prometheus);
        prometheus.kill('SIGTERM');
        await gone;
      }
      await server.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
