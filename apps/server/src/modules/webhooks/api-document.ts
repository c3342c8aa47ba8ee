import { z } from 'zod';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_KINDS, webhookPayload } from '@rewards/contract/console-webhooks';
import { RETRY_SCHEDULE_MS } from './delivery.ts';

const schedule = RETRY_SCHEDULE_MS.map((ms) =>
  ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`,
).join(', ');

const COMMON = [
  'Sent by POST to each enabled endpoint of the client that takes the kind, signed by the Standard Webhooks scheme (standardwebhooks.com):',
  'verify the body with the endpoint’s secret (whsec_…) and a Standard Webhooks library before trusting it.',
  `At least once: answer 2xx within 10 s once you have it; anything else is tried again after ${schedule}, then given up.`,
  'Every try carries the same webhook-id: deduplicate on it. One participant’s events reach an endpoint in the order they happened.',
].join(' ');

const headers = [
  { name: 'webhook-id', description: 'The event’s id (msg_…): the same on every try; deduplicate on it.' },
  { name: 'webhook-timestamp', description: 'When this try was sent, in whole seconds since 1970 (reject one far from your clock).' },
  {
    name: 'webhook-signature',
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> by the endpoint’s secret; during a rotation’s overlap two, space-separated (the new and the previous secret’s).',
  },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema, without its $schema. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
    reused: 'inline',
  });
  return rest;
}

/** The API document's `webhooks` (OpenAPI 3.1): each event kind, its headers and its body (decision 084). */
export function webhooksDocument(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_KINDS.map((kind) => [
      kind,
      {
        post: {
          operationId: `webhook.${kind}`,
          tags: ['Webhooks'],
          summary: WEBHOOK_EVENT_DESCRIPTIONS[kind],
          description: COMMON,
          parameters: headers,
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(webhookPayload(kind)) } } },
          responses: {
            '2XX': { description: 'Delivered: not sent again (unless someone sends it again from the console or the command).' },
            default: { description: `Not delivered: tried again after ${schedule}, then failed.` },
          },
        },
      },
    ]),
  );
}
