import { randomUUID } from 'node:crypto';
import type { Db } from '../database.ts';
import type { NewParticipant } from '../../modules/participants/tables.ts';
import { hashPassword } from '../../modules/auth/password.ts';
import { appendLedgerEntry, type LedgerMovement } from '../../modules/ledger/service.ts';
import { withSearchKeys } from '../../modules/participants/search-keys.ts';
import { ACME_LOGO_SVG } from './acme-logo.ts';
import { seedDemoAccount, WAITING } from './demo-account.ts';
import { BIGSPENDER, seedDemoActivity } from './demo-activity.ts';
import { demoEntries } from './demo-descriptions.ts';
import { DEMO_EVENT_BALANCE, seedDemoEvents } from './demo-events.ts';
import { seedDemoCatalog } from './demo-catalog.ts';
import { seedDemoContent } from './demo-content.ts';
import { NEIGHBOUR_CLIENT_ID, NEIGHBOUR_USERNAMES, seedDemoNeighbour } from './demo-neighbour.ts';
import { DEMO_OTS_CODES, seedDemoOts } from './demo-ots.ts';
import { prepareDemoStaff, seedDemoStaff } from './demo-staff.ts';

export const DEMO_CLIENT_ID = 'acme';
export const DEMO_PASSWORD = 'Rewards-2026!';

const DAY = 86_400_000;

interface DemoParticipant {
  username: string;
  firstName: string;
  lastName: string;
  status: 'active' | 'pending' | 'inactive';
  locale: string;
  merchandise: boolean;
  experiences: boolean;
  ots: boolean;
  programs: string[];
  history: Array<Omit<LedgerMovement, 'clientId' | 'participantId'>>;
}

function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY).toISOString();
}

type DemoEntry = DemoParticipant['history'][number];

const SALES = 'Sales Incentive 2026';
const SERVICE = 'Service Awards';

/**
 * Dana's history: monthly sales awards, quarterly service awards, spot bonuses and catalog
 * redemptions over eight months, 43 entries in all, closing at exactly 12,500 points.
 */
function demoHistory(now: Date): DemoParticipant['history'] {
  const history: DemoParticipant['history'] = [];
  const redemptions = [
    demoEntries.catalog('wireless headphones', 'ledger.item.wirelessHeadphones'),
    demoEntries.catalog('coffee machine', 'ledger.item.coffeeMachine'),
    demoEntries.experience('cooking class for two', 'ledger.item.cookingClass'),
    demoEntries.catalog('travel backpack', 'ledger.item.travelBackpack'),
    demoEntries.catalog('smart watch', 'ledger.item.smartWatch'),
    demoEntries.experience('spa day', 'ledger.item.spaDay'),
  ];
  for (let month = 8; month >= 1; month -= 1) {
    const base = month * 30;
    history.push({ occurredAt: daysAgo(now, base), ...demoEntries.monthlyTarget(SALES), amount: 1200 + month * 25 });
    history.push({ occurredAt: daysAgo(now, base - 6), ...demoEntries.spotBonus(), amount: 150 + (month % 3) * 50 });
    history.push({ occurredAt: daysAgo(now, base - 11), ...demoEntries.teamGoal(), amount: 300 + (month % 4) * 25 });
    history.push({ occurredAt: daysAgo(now, base - 17), ...demoEntries.training(), amount: 100 });
    if (month % 2 === 0) {
      history.push({ occurredAt: daysAgo(now, base - 21), ...demoEntries.quarterlyRecognition(SERVICE), amount: 750 });
    }
    if (month <= 6) {
      const redemption: Omit<DemoEntry, 'occurredAt' | 'amount'> =
        redemptions[(month - 1) % redemptions.length] ?? demoEntries.catalog('gift card', 'ledger.item.giftCard');
      history.push({ occurredAt: daysAgo(now, base - 24), ...redemption, amount: -(900 + month * 110) });
    }
  }
  // The code Dana redeemed earlier (demo-ots.ts) and her purchases (demo-events.ts) are part of her 12,500 too.
  const sum = history.reduce((total, entry) => total + entry.amount, 0) + DEMO_OTS_CODES.used.value + DEMO_EVENT_BALANCE.demo;
  history.push({ occurredAt: daysAgo(now, 2), ...demoEntries.yearStart(2026), amount: 12_500 - sum });
  return history.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
}

function participants(now: Date): DemoParticipant[] {
  const everything = { merchandise: true, experiences: true, ots: true };
  return [
    {
      username: 'demo',
      firstName: 'Dana',
      lastName: 'Demo',
      status: 'active',
      locale: 'en-US',
      ...everything,
      programs: ['Sales Incentive 2026', 'Service Awards'],
      history: demoHistory(now),
    },
    {
      username: 'spent',
      firstName: 'Sam',
      lastName: 'Spent',
      status: 'active',
      locale: 'en-US',
      ...everything,
      programs: ['Service Awards'],
      history: [
        { occurredAt: daysAgo(now, 120), ...demoEntries.serviceYears(SERVICE, 5), amount: 1500 },
        { occurredAt: daysAgo(now, 90), ...demoEntries.spotBonus(), amount: 500 },
        { occurredAt: daysAgo(now, 60), ...demoEntries.catalog('espresso machine', 'ledger.item.espressoMachine'), amount: -1200 },
        { occurredAt: daysAgo(now, 30), ...demoEntries.experience('concert tickets', 'ledger.item.concertTickets'), amount: -800 },
      ],
    },
    {
      username: 'newbie',
      firstName: 'Nina',
      lastName: 'Newbie',
      status: 'active',
      locale: 'en-US',
      ...everything,
      programs: ['Sales Incentive 2026'],
      history: [],
    },
    {
      username: 'pending',
      firstName: 'Pat',
      lastName: 'Pending',
      status: 'pending',
      locale: 'en-US',
      ...everything,
      programs: [],
      history: [],
    },
    {
      username: 'inactive',
      firstName: 'Ivan',
      lastName: 'Inactive',
      status: 'inactive',
      locale: 'en-US',
      ...everything,
      programs: [],
      history: [{ occurredAt: daysAgo(now, 200), ...demoEntries.quarterly(SALES), amount: 1000 }],
    },
    {
      username: 'merch',
      firstName: 'Mona',
      lastName: 'Merch',
      status: 'active',
      locale: 'ar',
      merchandise: true,
      experiences: false,
      ots: false,
      programs: [],
      history: [
        // Her purchases (demo-events.ts) make up the rest of her 3,250.
        { occurredAt: daysAgo(now, 75), ...demoEntries.monthlyTarget(SALES), amount: 2500 - DEMO_EVENT_BALANCE.merch },
        { occurredAt: daysAgo(now, 40), ...demoEntries.spotBonus(), amount: 750 },
      ],
    },
  ];
}

/** Where the installation's sealing key lives: given, the demo's console staff are seeded too (their TOTP secrets are sealed with it). */
export interface DemoSeedOptions {
  dataDir?: string;
}

/** The demo program of the README: client "Acme Rewards" on localhost and six participants. */
export async function seedDemo(db: Db, now = new Date(), options: DemoSeedOptions = {}): Promise<void> {
  // One hash for every demo participant, as for the demo staff: the password is published, so a
  // salt of its own per account protects nothing, and each argon2id hash costs a seed 35 ms of CPU.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const staff = options.dataDir === undefined ? [] : await prepareDemoStaff(options.dataDir, now);
  await db.transaction().execute(async (trx) => {
    const created = now.toISOString();
    await trx
      .insertInto('clients')
      .values({
        id: DEMO_CLIENT_ID,
        name: 'Acme Rewards',
        default_locale: 'en-US',
        logo: ACME_LOGO_SVG,
        brand_color: '#1d4ed8',
        privacy_notice_version: 1,
        sso_type: 'login_only',
        sso_logout_type: 'login',
        site_name: 'Acme Corporation',
        site_url: 'https://www.acme.example',
        portal_url: 'http://localhost:3000',
        password_rules: JSON.stringify({
          minLength: 10,
          maxLength: 128,
          requireUpper: true,
          requireLower: true,
          requireDigit: true,
          requireSymbol: true,
          notUsername: true,
        }),
        activation_fields: JSON.stringify(['accountNumber', 'lastName']),
        countries: JSON.stringify([
          { code: 'US', name: 'United States' },
          { code: 'FR', name: 'France' },
          { code: 'AE', name: 'United Arab Emirates' },
        ]),
        created_at: created,
      })
      .execute();
    await trx
      .insertInto('client_hosts')
      .values(['localhost', '127.0.0.1', '[::1]'].map((hostname) => ({ hostname, client_id: DEMO_CLIENT_ID })))
      .execute();
    await trx
      .insertInto('client_locales')
      .values([
        { client_id: DEMO_CLIENT_ID, code: 'en-US', dir: 'ltr', name: 'English', position: 1 },
        { client_id: DEMO_CLIENT_ID, code: 'fr-FR', dir: 'ltr', name: 'Français', position: 2 },
        { client_id: DEMO_CLIENT_ID, code: 'ar', dir: 'rtl', name: 'العربية', position: 3 },
      ])
      .execute();
    await trx
      .insertInto('media_labels')
      .values([
        { client_id: DEMO_CLIENT_ID, locale: 'en-US', forms: JSON.stringify({ one: 'Acme Point', other: 'Acme Points' }) },
        {
          client_id: DEMO_CLIENT_ID,
          locale: 'fr-FR',
          forms: JSON.stringify({ one: 'point Acme', many: 'de points Acme', other: 'points Acme' }),
        },
        {
          client_id: DEMO_CLIENT_ID,
          locale: 'ar',
          // Arabic counts in six forms: 0, 1, 2, 3-10, 11-99, and 100 and over.
          forms: JSON.stringify({
            zero: 'نقطة أكمي',
            one: 'نقطة أكمي واحدة',
            two: 'نقطتا أكمي',
            few: 'نقاط أكمي',
            many: 'نقطة أكمي',
            other: 'نقطة أكمي',
          }),
        },
      ])
      .execute();

    const list = participants(now);
    const participantIds = new Map<string, string>();
    for (const [index, person] of list.entries()) {
      const id = randomUUID();
      participantIds.set(person.username, id);
      const row: NewParticipant = withSearchKeys({
        id,
        client_id: DEMO_CLIENT_ID,
        username: person.username,
        username_key: person.username.toLowerCase(),
        email: `${person.username}@example.com`,
        first_name: person.firstName,
        last_name: person.lastName,
        password_hash: passwordHash,
        status: person.status,
        locale: person.locale,
        account_number: String(1_000_001 + index),
        offers_merchandise: person.merchandise ? 1 : 0,
        offers_experiences: person.experiences ? 1 : 0,
        ots_enabled: person.ots ? 1 : 0,
        privacy_ack_version: 0,
        balance: null,
        created_at: created,
      });
      await trx.insertInto('participants').values(row).execute();
      if (person.programs.length > 0) {
        await trx
          .insertInto('participant_programs')
          .values(
            person.programs.map((program_name, position) => ({ client_id: DEMO_CLIENT_ID, participant_id: id, program_name, position })),
          )
          .execute();
      }
      for (const entry of person.history) {
        await appendLedgerEntry(trx, { ...entry, clientId: DEMO_CLIENT_ID, participantId: id }, now);
      }
    }

    // Each capability's own demo data, in the same transaction.
    const ctx = { trx, clientId: DEMO_CLIENT_ID, now, participantIds, demoPasswordHash: passwordHash };
    await seedDemoActivity(ctx);
    await seedDemoOts(ctx);
    await seedDemoCatalog(ctx);
    await seedDemoContent(ctx);
    await seedDemoAccount(ctx);
    // The second program of the demo, on its own origin (issue 8).
    await seedDemoNeighbour(ctx);
    // The console's demo staff (docs/decisions/046), in both programs.
    await seedDemoStaff(trx, staff, now);
  });
  // Earning rules and events (issue 32) through the ledger writer, once the participants are committed.
  await seedDemoEvents(db, DEMO_CLIENT_ID, now);
}

/**
 * Every participant the demo seed makes, by client and username key: each holds the one hash of
 * the published password (demo-credentials.ts finds it through them; its test checks the list).
 */
export function demoParticipantKeys(): Array<{ clientId: string; usernameKeys: string[] }> {
  const acme = [...participants(new Date()).map((person) => person.username), BIGSPENDER.username, WAITING.username];
  return [
    { clientId: DEMO_CLIENT_ID, usernameKeys: acme.map((username) => username.toLowerCase()) },
    { clientId: NEIGHBOUR_CLIENT_ID, usernameKeys: NEIGHBOUR_USERNAMES.map((username) => username.toLowerCase()) },
  ];
}

/** First start of an embedded database in development: an installation with no client gets the demo program (never in production, decision 072). */
export async function seedDemoIfEmpty(db: Db, options: DemoSeedOptions = {}): Promise<boolean> {
  const any = await db.selectFrom('clients').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  await seedDemo(db, new Date(), options);
  return true;
}

export async function demoSeeded(db: Db): Promise<boolean> {
  return (await db.selectFrom('clients').select('id').where('id', '=', DEMO_CLIENT_ID).executeTakeFirst()) !== undefined;
}
