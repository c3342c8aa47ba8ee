import type { Command } from 'commander';
import { DEFAULT_ROTATION_OVERLAP_HOURS, MAX_ROTATION_OVERLAP_HOURS, WEBHOOK_EVENT_KINDS } from '@rewards/contract/console-webhooks';
import type { WebhookDelivery, WebhookEndpoint } from '@rewards/contract/console-webhooks';
import { loadConfig } from '../../config.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateSecret,
  updateEndpoint,
  type WebhookActor,
  type WebhookSettings,
} from '../../modules/webhooks/manage.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_KINDS);

/** `--events points.credited,code.redeemed` or `*` (every kind, also those added later). */
function eventsFlag(value: string | undefined): string[] {
  const named = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (named.length === 0) throw new CliError(`--events names at least one of ${WEBHOOK_EVENT_KINDS.join(', ')}, or * for all`);
  if (named.includes('*')) return ['*'];
  const unknown = named.filter((s) => !KNOWN.has(s));
  if (unknown.length > 0)
    throw new CliError(`--events: unknown ${unknown.join(', ')} (the kinds are ${WEBHOOK_EVENT_KINDS.join(', ')}, or *)`);
  return [...new Set(named)];
}

function reasonFlag(value: string | undefined): string {
  const reason = value?.trim() ?? '';
  if (reason.length < 3 || reason.length > 500) throw new CliError('--reason <text> is required (3 to 500 characters), for the audit log');
  return reason;
}

/** The installation's settings, as the server reads them: the sealing key's folder and the address policy. */
function settings(): WebhookSettings {
  const config = loadConfig();
  return { dataDir: config.catalog.dataDir, policy: config.webhooks };
}

const actorOf = (operator: string): WebhookActor => ({ name: operator, kind: 'operator', origin: operatorOrigin });

function endpointLine(e: WebhookEndpoint): string {
  return [
    e.id,
    e.enabled ? 'enabled ' : 'DISABLED',
    e.url,
    e.events.join(','),
    ...(e.failingSince ? [`failing since ${e.failingSince}`] : []),
    ...(e.disabledReason ? [`(${e.disabledReason})`] : []),
    ...(e.previousSecretUntil ? [`old secret signs until ${e.previousSecretUntil}`] : []),
  ].join('  ');
}

function deliveryLine(d: WebhookDelivery): string {
  return [
    d.id,
    d.eventId,
    d.kind.padEnd(26),
    (d.username ?? '-').padEnd(16),
    d.status.padEnd(9),
    `tries ${d.attempts}`,
    d.lastStatus === null ? '' : `last ${d.lastStatus}`,
    d.lastError && d.status !== 'delivered' ? `(${d.lastError})` : '',
    d.status === 'pending' && d.nextAttemptAt ? `next ${d.nextAttemptAt}` : (d.deliveredAt ?? d.lastAttemptAt ?? ''),
  ]
    .filter((part) => part !== '')
    .join('  ');
}

/** `rewards webhooks …`: a client's webhook endpoints and their deliveries (docs/decisions/084), through the console's service. */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description("a client's webhook endpoints: events told to its systems, signed (Standard Webhooks)");

  const create = webhooks
    .command('create')
    .description('add an endpoint; its signing secret is printed once')
    .requiredOption('--client <id>', 'the client whose events it takes')
    .requiredOption('--url <url>', 'where to POST (https; http and loopback only with WEBHOOKS_ALLOW_LOOPBACK=on)')
    .requiredOption('--events <list>', `comma-separated kinds (${WEBHOOK_EVENT_KINDS.join(', ')}), or * for all`)
    .option('--description <text>', 'what receives them, e.g. "CRM"')
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; url: string; events: string; description?: string; reason?: string }>(
    create,
    async (db, { options, operator }) => {
      const reason = reasonFlag(options.reason);
      const events = eventsFlag(options.events);
      await requireClient(db, options.client);
      const { endpoint, secret } = await createEndpoint(db, settings(), actorOf(operator), {
        clientId: options.client,
        url: options.url,
        events,
        description: options.description,
        reason,
      });
      return {
        human: [
          `Created webhook endpoint ${endpoint.id} for ${options.client}: ${endpoint.url} (${endpoint.events.join(', ')}).`,
          '',
          `  ${secret}`,
          '',
          'This is the signing secret, shown this once: give it to the receiver (a secret store, not a repository).',
          'Verify each delivery with a Standard Webhooks library (docs/webhooks.md).',
        ].join('\n'),
        json: { ...endpoint, secret },
      };
    },
  );

  const list = webhooks
    .command('list')
    .description("the client's endpoints (never their secrets)")
    .requiredOption('--client <id>', 'the client');
  action<{ client: string }>(list, async (db, { options }) => {
    await requireClient(db, options.client);
    const all = await listEndpoints(db, options.client);
    if (all.length === 0) return { human: `No webhook endpoints in ${options.client}.`, json: all };
    return { human: all.map(endpointLine).join('\n'), json: all };
  });

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    const command = webhooks
      .command(name)
      .description(
        enabled
          ? 'deliver to the endpoint again (its held deliveries go out)'
          : 'stop delivering to the endpoint (events are not told to it meanwhile)',
      )
      .requiredOption('--client <id>', "the endpoint's client")
      .requiredOption('--endpoint <id>', "the endpoint's id, as list shows")
      .option('--reason <text>', 'why, for the audit log (required)');
    action<{ client: string; endpoint: string; reason?: string }>(command, async (db, { options, operator }) => {
      const reason = reasonFlag(options.reason);
      await requireClient(db, options.client);
      const endpoint = await updateEndpoint(db, settings(), actorOf(operator), {
        clientId: options.client,
        endpointId: options.endpoint.trim(),
        enabled,
        reason,
      });
      return { human: `${enabled ? 'Enabled' : 'Disabled'} webhook endpoint ${endpoint.id} (${endpoint.url}).`, json: endpoint };
    });
  }

  const remove = webhooks
    .command('delete')
    .description('remove the endpoint and its deliveries (nothing more is sent to it)')
    .requiredOption('--client <id>', "the endpoint's client")
    .requiredOption('--endpoint <id>', "the endpoint's id, as list shows")
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; endpoint: string; reason?: string }>(remove, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    await requireClient(db, options.client);
    const endpointId = options.endpoint.trim();
    await deleteEndpoint(db, actorOf(operator), { clientId: options.client, endpointId, reason });
    return { human: `Deleted webhook endpoint ${endpointId} and its deliveries.`, json: { id: endpointId, deleted: true } };
  });

  const rotate = webhooks
    .command('rotate-secret')
    .description('a new signing secret, printed once; the old one keeps signing beside it for the overlap')
    .requiredOption('--client <id>', "the endpoint's client")
    .requiredOption('--endpoint <id>', "the endpoint's id")
    .option(
      '--overlap-hours <n>',
      `how long the old secret still signs (0 to ${MAX_ROTATION_OVERLAP_HOURS}; default ${DEFAULT_ROTATION_OVERLAP_HOURS})`,
    )
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; endpoint: string; overlapHours?: string; reason?: string }>(rotate, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    const overlapHours =
      options.overlapHours === undefined ? undefined : wholeNumber('--overlap-hours', options.overlapHours, 0, MAX_ROTATION_OVERLAP_HOURS);
    await requireClient(db, options.client);
    const { endpoint, secret } = await rotateSecret(db, settings(), actorOf(operator), {
      clientId: options.client,
      endpointId: options.endpoint.trim(),
      overlapHours,
      reason,
    });
    return {
      human: [
        `New signing secret for webhook endpoint ${endpoint.id}:`,
        '',
        `  ${secret}`,
        '',
        endpoint.previousSecretUntil
          ? `The old secret signs too until ${endpoint.previousSecretUntil}: update the receiver before then.`
          : 'The old secret no longer signs.',
      ].join('\n'),
      json: { ...endpoint, secret },
    };
  });

  const deliveries = webhooks
    .command('deliveries')
    .description("an endpoint's deliveries, newest first: event, status, tries, last answer")
    .requiredOption('--client <id>', "the endpoint's client")
    .requiredOption('--endpoint <id>', "the endpoint's id")
    .option('--limit <n>', 'how many (default 50, at most 500)');
  action<{ client: string; endpoint: string; limit?: string }>(deliveries, async (db, { options }) => {
    const limit = options.limit === undefined ? 50 : wholeNumber('--limit', options.limit, 1, 500);
    await requireClient(db, options.client);
    const page = await listDeliveries(db, { clientId: options.client, endpointId: options.endpoint.trim(), limit });
    if (page.deliveries.length === 0) return { human: `No deliveries to ${options.endpoint} yet.`, json: page.deliveries };
    return { human: page.deliveries.map(deliveryLine).join('\n'), json: page.deliveries };
  });

  const resend = webhooks
    .command('resend')
    .description('send a delivery again now (same webhook-id; the receiver deduplicates on it)')
    .requiredOption('--client <id>', "the delivery's client")
    .requiredOption('--delivery <id>', "the delivery's id, as deliveries shows")
    .option('--reason <text>', 'why, for the audit log');
  action<{ client: string; delivery: string; reason?: string }>(resend, async (db, { options, operator }) => {
    await requireClient(db, options.client);
    const delivery = await resendDelivery(db, actorOf(operator), {
      clientId: options.client,
      deliveryId: options.delivery.trim(),
      reason: options.reason?.trim() || undefined,
    });
    return {
      human: `Delivery ${delivery.id} (${delivery.kind}, ${delivery.eventId}) is due again now; a running server sends it within a second or two.`,
      json: delivery,
    };
  });
}
