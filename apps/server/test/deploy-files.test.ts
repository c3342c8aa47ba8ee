// Decision 082: the files of deploy/ are checked, so a new setting, a changed node flag or a longer
// drain cannot leave them behind: the env file names every variable config.ts reads, the systemd
// unit runs what `npm start` runs and waits longer than the drain, Caddy accepts the Caddyfile.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '../src/config.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../src/process-settings.ts';
import { buildProgram } from '../src/cli/rewards.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const DEPLOY = join(ROOT, 'deploy');
const read = (name: string) => readFileSync(join(DEPLOY, name), 'utf8');
/** The process's own bound after DRAIN_SECONDS (main.ts STOP_BOUND_SECONDS). */
const STOP_BOUND_SECONDS = 30;

/** NAME=value lines of an env file, set or commented out (`# NAME=…`): name → value (the commented ones undefined). */
function envLines(text: string): Map<string, string | undefined> {
  const lines = new Map<string, string | undefined>();
  for (const line of text.split('\n')) {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    // systemd and sh both take a value in double quotes without them.
    if (match) lines.set(match[2]!, match[1] === undefined ? match[3]!.replace(/^"(.*)"$/, '$1') : lines.get(match[2]!));
  }
  return lines;
}

/** `Key=value` lines of a unit's [Service] section, every value of each key. */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-deploy-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('deploy/rewards.env.example', () => {
  const example = envLines(read('rewards.env.example'));

  it('has a line for every variable config.ts reads, and none it does not', () => {
    expect(CONFIG_VARIABLES.filter((name) => !example.has(name))).toEqual([]);
    expect([...example.keys()].filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it('is a production configuration the server accepts, given the database the unit hands it', () => {
    const set = Object.fromEntries([...example].filter((entry): entry is [string, string] => entry[1] !== undefined));
    const config = loadConfig({ ...set, PORT: '3001', DATABASE_URL: 'file:/var/lib/rewards/rewards.db' }, { server: true });
    expect(config.production).toBe(true);
    expect(config.trustProxy).toEqual(['loopback']);
    // Values the unit sets per process are not in the shared file: files override the unit's Environment=.
    expect(example.get('PORT')).toBeUndefined();
    expect(example.get('METRICS_PORT')).toBeUndefined();
  });

  it('reads the same in sh as in systemd, for the rewards wrapper', async () => {
    const { stdout } = await run('/bin/sh', ['-c', 'set -a; . "$1"; env', 'sh', join(DEPLOY, 'rewards.env.example')], { env: {} });
    const fromShell = new Map(stdout.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    for (const [name, value] of example) if (value !== undefined) expect([name, fromShell.get(name)]).toEqual([name, value]);
  });
});

describe('deploy/rewards@.service', () => {
  const text = read('rewards@.service');
  const unit = unitSettings(text);

  it("runs the built server with npm start's node flags, waits longer than the drain, and sandboxes it", () => {
    expect(unit.get('ExecStart')).toEqual([
      ['/opt/rewards/node_modules/.bin/node', ...SERVER_NODE_FLAGS, '/opt/rewards/apps/server/dist/main.js'].join(' '),
    ]);
    // And its environment, which npm start sets too (none today).
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(unit.get('Environment')).toContain(`${name}=${value}`);
    const drain = Number(envLines(read('rewards.env.example')).get('DRAIN_SECONDS'));
    expect(Number(unit.get('TimeoutStopSec')?.[0])).toBeGreaterThan(drain + STOP_BOUND_SECONDS);
    expect(unit.get('KillSignal')).toEqual(['SIGTERM']);
    expect(unit.get('Restart')).toEqual(['on-failure']);
    expect(unit.get('EnvironmentFile')?.[0]).toBe('/etc/rewards/rewards.env');
    expect(unit.get('Environment')).toEqual(expect.arrayContaining(['PORT=30%i', 'DATABASE_URL_FILE=%d/database-url']));
    for (const [key, value] of [
      ['User', 'rewards'],
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['PrivateTmp', 'yes'],
    ])
      expect([key, unit.get(key!)]).toEqual([key, [value]]);
    // DATA_DIR of the env file is the one place it may write.
    expect(unit.get('ReadWritePaths')).toEqual([envLines(read('rewards.env.example')).get('DATA_DIR')]);
    // V8 writes machine code at run time.
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it.runIf(existsSync('/usr/bin/systemd-analyze'))('passes systemd-analyze verify without a warning', async () => {
    // The unit as installed from this checkout, so that ExecStart's node and main.js path exist to be checked.
    const dir = tempDir();
    writeFileSync(join(dir, 'rewards@.service'), text.replaceAll('/opt/rewards', ROOT));
    const { stdout, stderr } = await run('systemd-analyze', ['verify', '--man=no', join(dir, 'rewards@01.service')]);
    expect(`${stdout}${stderr}`).toBe('');
  });
});

describe('deploy/Caddyfile', () => {
  it('is valid to Caddy, and balances with active checks on /readyz and the request id', async () => {
    const text = read('Caddyfile');
    for (const directive of ['health_uri /readyz', 'lb_policy', 'lb_try_duration', 'header_up X-Request-Id {http.request.uuid}'])
      expect(text).toContain(directive);
    // Caddy keeps state under its home; a temporary one, never the machine's.
    const dir = tempDir();
    // A refusal exits 1, which rejects with Caddy's message.
    const { stdout } = await run('/usr/bin/caddy', ['validate', '--adapter', 'caddyfile', '--config', join(DEPLOY, 'Caddyfile')], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    expect(stdout).toContain('Valid configuration');
  });
});

describe('docs/operations.md', () => {
  const text = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  /** The shell a reader copies: the lines of code blocks (less `# comments`) and inline code spans. */
  const code = [
    ...[...text.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((block) => block[1]!.split('\n').map((line) => line.replace(/\s+#.*$/, ''))),
    ...[...text.matchAll(/`([^`\n]+(?:\n[^`\n]+)?)`/g)].map((span) => span[1]!.replace(/\s+/g, ' ')),
  ];

  it("names only the rewards command's real subcommands and flags", () => {
    const program = buildProgram();
    const commands = new Set(program.commands.map((command) => command.name()));
    const problems: string[] = [];
    let checked = 0;
    for (const piece of code)
      for (const match of piece.matchAll(/(?:^|\s)rewards ([a-z][^`]*)/g)) {
        const words = match[1]!.split(' ');
        if (!commands.has(words[0]!)) continue; // `rewards` the user or the directory, not the command
        checked += 1;
        let command = program;
        for (const word of words) {
          const sub = command.commands.find((c) => c.name() === word);
          if (sub) command = sub;
          else if (word.startsWith('--')) {
            const flag = word.split('=')[0]!;
            const known = [...command.options, ...program.options].some((option) => option.long === flag);
            if (!known) problems.push(`${match[0].trim()}: ${flag} is not an option of rewards ${command.name()}`);
          }
        }
        if (command === program) problems.push(`${match[0].trim()}: no such command`);
      }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(8);
  });

  it('names the deploy files, and settings config.ts reads', () => {
    for (const file of ['deploy/rewards.env.example', 'deploy/rewards@.service', 'deploy/Caddyfile', 'deploy/alerts.yml'])
      expect(existsSync(join(ROOT, file)) && text.includes(file)).toBe(true);
    const settings = [...text.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`/g)].map((m) => m[1]!);
    expect(settings.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });
});
