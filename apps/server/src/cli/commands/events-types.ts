import type { Command } from 'commander';
import type { EventTypeView } from '@rewards/contract/console-event-types';
import { declareEventType, listEventTypes, retireEventType, type EventTypeEditor } from '../../modules/events/types.ts';
import { action, CliError, requireClient } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/** `rewards events types …`: a client's event types, declared and retired by the operator (issue 32 §1, docs/decisions/100). */

const editorOf = (operator: string): EventTypeEditor => ({ kind: 'operator', name: operator, origin: operatorOrigin });

/**
 * The `events` command several parts hang their subcommands on (types here; the CSV import and
 * the pending release in events-import.ts and events-release.ts, which find it the same way):
 * made by whichever registers first, found by the others, whatever the order of registration.
 */
function eventsCommand(program: Command): Command {
  return (
    program.commands.find((command) => command.name() === 'events') ??
    program.command('events').description("a client's events: what participants did, turned into points by the earning rules")
  );
}

function typeLine(type: EventTypeView): string {
  const origin =
    type.origin === 'built-in'
      ? 'built in'
      : type.origin === 'declared'
        ? `declared ${type.declaredAt?.slice(0, 10) ?? ''} by ${type.declaredBy ?? ''}`
        : 'by its rules';
  return [
    type.name.padEnd(24),
    (type.retired ? 'RETIRED' : 'in use').padEnd(8),
    origin,
    ...(type.rules.length > 0 ? [`rules: ${type.rules.join(', ')}`] : []),
    ...(type.description ? [`— ${type.description}`] : []),
    ...(type.retired ? [`(retired ${type.retired.at.slice(0, 10)} by ${type.retired.by}: "${type.retired.reason}")`] : []),
  ].join('  ');
}

function reasonFlag(value: string | undefined): string {
  const reason = value?.trim() ?? '';
  if (reason.length < 3 || reason.length > 500) throw new CliError('--reason <text> is required (3 to 500 characters), for the audit log');
  return reason;
}

export function registerEventTypes(program: Command): void {
  const types = eventsCommand(program)
    .command('types')
    .description("a client's event types: purchase and return built in, others declared (course.completed), retired with a reason");

  const list = types
    .command('list')
    .description('the event types: built in, declared, or earned on by rules; retired or in use')
    .requiredOption('--client <id>', 'the client');
  action<{ client: string }>(list, async (db, { options }) => {
    await requireClient(db, options.client);
    const all = await listEventTypes(db, options.client);
    return { human: all.map(typeLine).join('\n'), json: all };
  });

  const declare = types
    .command('declare')
    .description("declare an event type the client's systems will send (a retired one is declared again)")
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--name <name>', 'lower-case dotted words, at most 64 characters (course.completed)')
    .option('--description <text>', 'what it means: what the client sends, and when');
  action<{ client: string; name: string; description?: string }>(declare, async (db, { options, operator }) => {
    await requireClient(db, options.client);
    const { type } = await declareEventType(db, editorOf(operator), options.client, {
      name: options.name,
      description: options.description,
    });
    return { human: `Declared event type ${type.name} of ${options.client}.`, json: type };
  });

  const retire = types
    .command('retire')
    .description('retire an event type: events of it are refused from then on (disable the rules that earn on it first)')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--name <name>', 'the event type')
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; name: string; reason?: string }>(retire, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    await requireClient(db, options.client);
    const { type } = await retireEventType(db, editorOf(operator), options.client, options.name, reason);
    return { human: `Retired event type ${type.name} of ${options.client}: events of it are refused from now on.`, json: type };
  });
}
