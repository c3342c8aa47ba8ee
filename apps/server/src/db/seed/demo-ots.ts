import { appendLedgerEntry } from '../../modules/ledger/service.ts';
import { claimOtsCode, insertOtsCodes, newOtsCodeRows } from '../../modules/ots/service.ts';
import { normaliseOtsCode, otsCodeHash, otsCodeHint } from '../../modules/ots/code.ts';
import type { DemoSeedContext } from './demo-context.ts';

const DAY = 86_400_000;

/**
 * Codes of the demo program, made of the look-alike-free alphabet of modules/ots/code.ts.
 * The first two belong to the browser test (apps/web/e2e/ots.e2e.ts), the next two to the
 * screenshots; the rest are left for people to try. Listed in docs/decisions/008.
 */
export const DEMO_OTS_CODES = {
  unused: [
    { code: 'ACME-7K3F-Q9TX', value: 250 },
    { code: 'ACME-H4WN-RT6P', value: 500 },
    { code: 'ACME-3MXC-DV7Q', value: 100 },
    { code: 'ACME-9PRT-K4HW', value: 1000 },
    { code: 'ACME-T7YE-NC3A', value: 750 },
    { code: 'ACME-W6QJ-FX4M', value: 300 },
    { code: 'ACME-K9DA-7RPE', value: 200 },
    { code: 'ACME-C4NV-Y6TU', value: 1500 },
    { code: 'ACME-XJ7H-3EKD', value: 50 },
    { code: 'ACME-R3UF-M9WC', value: 400 },
    { code: 'ACME-F6TQ-A4JN', value: 600 },
    { code: 'ACME-P7EM-WK3H', value: 125 },
  ],
  /** Redeemed by demo ten days ago, with its ledger entry. */
  used: { code: 'ACME-Q4RD-9MTE', value: 500 },
  /** Expired a month ago, never redeemed. */
  expired: { code: 'ACME-E6VA-N3KY', value: 800 },
} as const;

/** The ots part of the demo program (issue 5). */
export async function seedDemoOts(ctx: DemoSeedContext): Promise<void> {
  const { trx, clientId, now } = ctx;
  const batch = 'Demo 2026';
  const inAYear = new Date(now.getTime() + 365 * DAY).toISOString();
  const rows = newOtsCodeRows(
    clientId,
    [
      // Some expire, most never do: both kinds show in the operator's view.
      ...DEMO_OTS_CODES.unused.map((c, index) => ({ ...c, batch, expiresAt: index % 3 === 2 ? inAYear : null })),
      { ...DEMO_OTS_CODES.used, batch },
      { ...DEMO_OTS_CODES.expired, batch, expiresAt: new Date(now.getTime() - 30 * DAY).toISOString() },
    ],
    now,
  );
  await insertOtsCodes(trx, rows);

  // Dana redeemed one code ten days ago, as the portal would have: claim and ledger entry.
  const demoId = ctx.participantIds.get('demo');
  if (!demoId) return;
  const used = normaliseOtsCode(DEMO_OTS_CODES.used.code);
  const usedRow = rows.find((r) => r.code_hash === otsCodeHash(used));
  const redeemedAt = new Date(now.getTime() - 10 * DAY).toISOString();
  if (!usedRow || !(await claimOtsCode(trx, clientId, otsCodeHash(used), demoId, redeemedAt))) throw new Error('demo ots seed');
  await appendLedgerEntry(
    trx,
    {
      clientId,
      participantId: demoId,
      occurredAt: redeemedAt,
      description: `On-the-spot code …${otsCodeHint(used)}`,
      descriptionKey: 'ledger.ots.redeemed',
      descriptionParams: { hint: otsCodeHint(used) },
      amount: DEMO_OTS_CODES.used.value,
      kind: 'ots',
      reference: `ots:${usedRow.id}`,
    },
    now,
  );
}
