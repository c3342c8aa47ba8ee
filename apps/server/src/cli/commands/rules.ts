import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { EarningLine, EarningRuleView, SimulationResult } from '@rewards/contract/earning-rules';
import {
  createRule,
  listRules,
  ruleHistory,
  setRuleEnabled,
  simulate,
  updateRule,
  type RuleChange,
  type RuleEditor,
} from '../../modules/earning-rules/service.ts';
import { action, CliError, requireClient, type CommandResult } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/** `rewards rules …`: a client's earning rules from files, and what an event would earn (issue 32 §2, docs/decisions/095). */

const editorOf = (operator: string): RuleEditor => ({ kind: 'operator', name: operator, origin: operatorOrigin });

/** A JSON file (`/dev/stdin` to pipe it), or a refusal naming the file and what is wrong. */
async function readJson(path: string | undefined, flag = '--file'): Promise<unknown> {
  if (!path) throw new CliError(`${flag} <file.json> is required`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new CliError(`Cannot read ${path}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}

function reasonFlag(value: string | undefined): string {
  const reason = value?.trim() ?? '';
  if (reason.length < 3 || reason.length > 500) throw new CliError('--reason <text> is required (3 to 500 characters), for the audit log');
  return reason;
}

/** The rule a command names: --rule, else the file's "id". */
function ruleIdOf(flag: string | undefined, file: unknown): string {
  if (flag) return flag;
  const id = typeof file === 'object' && file !== null && 'id' in file ? (file as { id: unknown }).id : undefined;
  if (typeof id === 'string' && id !== '') return id;
  throw new CliError('--rule <id> is required (or an "id" in the file)');
}

function ruleLine(r: EarningRuleView): string {
  const earn = r.rule.earn;
  const what =
    earn.points !== undefined
      ? `${earn.points} points`
      : earn.pointsPer !== undefined
        ? `${earn.pointsPer} per ${earn.per ?? ''}${earn.currency ? ` ${earn.currency}` : ''} (${earn.rounding ?? 'down'})`
        : `× ${earn.multiply ?? ''} of ${earn.rules?.join(', ') ?? 'all rules'}`;
  const state =
    r.inForce === null
      ? `from ${r.effectiveFrom}`
      : r.inForce.version !== r.version
        ? `${r.inForce.enabled ? 'on' : 'OFF'} (v${r.version} ${r.enabled ? 'on' : 'off'} from ${r.effectiveFrom})`
        : r.enabled
          ? 'on'
          : 'OFF';
  return [
    r.id.padEnd(24),
    `v${r.version}`.padEnd(4),
    state.padEnd(4),
    r.event.padEnd(14),
    r.rule.name,
    `— ${what}`,
    ...(r.rule.stacking === 'best' ? ['[best]'] : []),
    ...(r.rule.caps.participant ? [`cap ${r.rule.caps.participant.points}/${r.rule.caps.participant.per}`] : []),
    ...(r.budget ? [`budget ${r.budget.left} of ${r.budget.points} left`] : []),
    ...(r.rule.pendingDays > 0 ? [`pending ${r.rule.pendingDays} d`] : []),
  ].join('  ');
}

function changed(verb: string, clientId: string, change: RuleChange): CommandResult {
  const r = change.rule;
  const human = change.unchanged
    ? `Rule ${r.id} of ${clientId} is already so: nothing written (version ${r.version}).`
    : `${verb} rule ${r.id} of ${clientId}: version ${r.version}, ${r.enabled ? 'earning' : 'disabled'} from ${r.effectiveFrom}.`;
  return { human, json: change };
}

function lineText(line: EarningLine): string[] {
  const head = `  ${String(line.points).padStart(8)}  ${line.ruleId} v${line.version}  ${line.name}${line.kind === 'promotion' ? ' (promotion)' : ''}`;
  const out = [head];
  for (const c of line.conditions) out.push(`            ${c.met ? 'met    ' : 'NOT met'} ${c.condition} (${c.detail})`);
  if (line.matched) out.push(`            ${line.calculation}`);
  for (const t of line.trims) out.push(`            ${t.before} → ${t.after}: ${t.detail}`);
  if (line.points > 0 && line.pendingDays > 0) out.push(`            pending ${line.pendingDays} days`);
  return out;
}

function simulationText(result: SimulationResult): string {
  const who = result.event.username ?? 'a participant with no programs and nothing earned yet';
  const header = `${result.event.type} at ${result.event.occurredAt} (${result.localDay}, ${result.dayOfWeek}, ${result.timeZone}) for ${who}:`;
  if (result.lines.length === 0) return `${header}\n  no rule of this event type is in force at that time: 0 points.`;
  return [
    header,
    ...result.lines.flatMap(lineText),
    `  ${String(result.total).padStart(8)}  in all${result.pending > 0 ? `, ${result.pending} of them pending` : ''} (nothing was written)`,
  ].join('\n');
}

/** `rewards rules …` (docs/decisions/095): create, update, disable, enable, list and simulate, through the earning rules' service. */
export function registerRules(program: Command): void {
  const rules = program
    .command('rules')
    .description("a client's earning rules: what events earn, versioned (an event uses the rules in force at its time)");

  const fromOption = '--from <time>';
  const fromHelp = 'when the new version begins (ISO 8601 with offset, now or later; default now)';

  const create = rules
    .command('create')
    .description('add a rule from a JSON file (its "id", else one made from its name)')
    .requiredOption('--client <id>', 'the client')
    .option('--file <rule.json>', 'the rule')
    .option('--reason <text>', 'why, for the audit log (required)')
    .option(fromOption, fromHelp);
  action<{ client: string; file?: string; reason?: string; from?: string }>(create, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    const file = await readJson(options.file);
    await requireClient(db, options.client);
    return changed(
      'Created',
      options.client,
      await createRule(db, editorOf(operator), options.client, file, reason, { effectiveFrom: options.from }),
    );
  });

  const update = rules
    .command('update')
    .description('write a new version of a rule from a JSON file (events before it keep the version they had)')
    .requiredOption('--client <id>', 'the client')
    .option('--rule <id>', 'the rule (default: the "id" in the file)')
    .option('--file <rule.json>', 'the rule as it is to be')
    .option('--reason <text>', 'why, for the audit log (required)')
    .option(fromOption, fromHelp);
  action<{ client: string; rule?: string; file?: string; reason?: string; from?: string }>(update, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    const file = await readJson(options.file);
    const ruleId = ruleIdOf(options.rule, file);
    await requireClient(db, options.client);
    return changed(
      'Updated',
      options.client,
      await updateRule(db, editorOf(operator), options.client, ruleId, file, reason, { effectiveFrom: options.from }),
    );
  });

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    const command = rules
      .command(name)
      .description(
        enabled ? 'let a disabled rule earn again (a new version)' : 'stop a rule earning (a new version; earlier events keep theirs)',
      )
      .requiredOption('--client <id>', 'the client')
      .option('--rule <id>', 'the rule')
      .option('--file <rule.json>', 'or the file whose "id" names it')
      .option('--reason <text>', 'why, for the audit log (required)')
      .option(fromOption, fromHelp);
    action<{ client: string; rule?: string; file?: string; reason?: string; from?: string }>(command, async (db, { options, operator }) => {
      const reason = reasonFlag(options.reason);
      const ruleId = ruleIdOf(options.rule, options.rule ? undefined : await readJson(options.file, '--rule <id> or --file'));
      await requireClient(db, options.client);
      const change = await setRuleEnabled(db, editorOf(operator), options.client, ruleId, enabled, reason, { effectiveFrom: options.from });
      return changed(enabled ? 'Enabled' : 'Disabled', options.client, change);
    });
  }

  const list = rules
    .command('list')
    .description("the client's rules: latest version, the one in force, budgets left")
    .requiredOption('--client <id>', 'the client');
  action<{ client: string }>(list, async (db, { options }) => {
    await requireClient(db, options.client);
    const all = await listRules(db, options.client);
    if (all.length === 0) return { human: `No earning rules in ${options.client}.`, json: all };
    return { human: all.map(ruleLine).join('\n'), json: all };
  });

  const show = rules
    .command('show')
    .description('every version of a rule: from when, on or off, who, why, what changed')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--rule <id>', 'the rule');
  action<{ client: string; rule: string }>(show, async (db, { options }) => {
    await requireClient(db, options.client);
    const versions = await ruleHistory(db, options.client, options.rule);
    const human = versions.map((v) =>
      [
        `v${v.version}`.padEnd(4),
        `from ${v.effectiveFrom}`,
        v.enabled ? 'on ' : 'OFF',
        `by ${v.changedBy}`,
        `"${v.reason}"`,
        v.version === 1 ? '' : v.changed.length > 0 ? `changed ${v.changed.join(', ')}` : '',
      ]
        .filter((part) => part !== '')
        .join('  '),
    );
    return { human: [`${options.rule} (${versions.at(-1)?.rule.name ?? ''}):`, ...human].join('\n'), json: versions };
  });

  const simulateCommand = rules
    .command('simulate')
    .description('what an event would earn, rule by rule, writing nothing')
    .requiredOption('--client <id>', 'the client')
    .option('--file <event.json>', '{"type": "purchase", "username"?, "occurredAt"?, "amount"?, "currency"?, "attributes"?}');
  action<{ client: string; file?: string }>(simulateCommand, async (db, { options }) => {
    const event = await readJson(options.file);
    await requireClient(db, options.client);
    const result = await simulate(db, options.client, event);
    return { human: simulationText(result), json: result };
  });
}
