import { randomUUID } from 'node:crypto';
import { contentKeys, rulesKey } from '@rewards/contract';
import { appendLedgerEntries } from '../../modules/ledger/bulk.ts';
import type { LedgerMovement } from '../../modules/ledger/service.ts';
import type { NewParticipant } from '../../modules/participants/tables.ts';
import { withSearchKeys } from '../../modules/participants/search-keys.ts';
import type { DemoSeedContext } from './demo-context.ts';
import { demoEntries } from './demo-descriptions.ts';

/**
 * The demo's second program, Nimbus Miles (issue 8): another client on the same installation,
 * with its own origin, branding, languages (French first) and participants, one of whom is
 * "demo" like Acme's Dana, with another name and balance. It shows that each origin opens its
 * own program and nothing of one shows in the other. Hosts: 127.0.0.2 (a server listening
 * there or on all addresses) and nimbus.localhost (browsers send *.localhost to this machine,
 * so http://nimbus.localhost:3000 works with the default HOST).
 */
export const NEIGHBOUR_CLIENT_ID = 'nimbus';
export const NEIGHBOUR_HOSTS = ['127.0.0.2', 'nimbus.localhost'] as const;
const PROGRAM = 'Club Nimbus';
const DAY = 86_400_000;

export const NIMBUS_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 230 48" role="img" aria-label="Nimbus Miles">
<rect x="2" y="4" width="40" height="40" rx="20" fill="#0e7490"/>
<path d="M13 30.5a6 6 0 0 1 1.2-11.9 8.5 8.5 0 0 1 16.2 2.4 4.8 4.8 0 0 1-.6 9.5z" fill="#ffffff"/>
<path d="M16 35.5h13" stroke="#fcd34d" stroke-width="2.4" stroke-linecap="round"/>
<text x="52" y="31" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="22" font-weight="700" fill="#164e63">Nimbus<tspan font-weight="400" fill="#0e7490"> Miles</tspan></text>
</svg>`;

interface NeighbourParticipant {
  username: string;
  firstName: string;
  lastName: string;
  locale: string;
  /** Amounts, oldest first, one entry every few weeks. */
  amounts: number[];
  /** Not yet activated: proves who they are with account number and date of birth. */
  pending?: { dateOfBirth: string };
}

const PARTICIPANTS: NeighbourParticipant[] = [
  // Same username as Acme's Dana (12,500 points): Noémie has 3,250 miles.
  { username: 'demo', firstName: 'Noémie', lastName: 'Nuage', locale: 'fr-FR', amounts: [1500, 400, 750, -900, 1200, 300] },
  { username: 'voyageur', firstName: 'Victor', lastName: 'Vent', locale: 'fr-FR', amounts: [600, 200] },
  { username: 'skyler', firstName: 'Skyler', lastName: 'Stratus', locale: 'en-US', amounts: [2000, -1500, 250] },
  // Nimbus asks for the date of birth at activation (decision 039): Élise, 2000004, 1987-03-14.
  { username: 'escale', firstName: 'Élise', lastName: 'Escale', locale: 'fr-FR', amounts: [], pending: { dateOfBirth: '1987-03-14' } },
];

/** Nimbus's participants, by username: each holds the demo's published password (demo-credentials.ts looks for it). */
export const NEIGHBOUR_USERNAMES: readonly string[] = PARTICIPANTS.map((person) => person.username);

/** The demo's participant who activates with a date of birth (README, browser tests). */
export const NIMBUS_PENDING = { username: 'escale', accountNumber: '2000004', dateOfBirth: '1987-03-14' } as const;

const CONTENT: Record<string, Record<string, string>> = {
  'fr-FR': {
    [contentKeys.faqs]: `## Qu’est-ce que les milles Nimbus ?
Les milles Nimbus récompensent vos voyages professionnels et vos suggestions pour voyager mieux.

## Quand mes milles arrivent-ils ?
Au début du mois qui suit le voyage, une fois la note de frais validée.`,
    [contentKeys.privacyPolicy]: `## Vos données
Nimbus ne garde que ce qu’il faut pour créditer vos milles : votre nom, votre adresse électronique et vos voyages.

## Vos droits
Écrivez au service client pour consulter ou corriger vos données.`,
    [rulesKey(PROGRAM)]: `Le Club Nimbus récompense les collaborateurs qui voyagent pour Nimbus.

### Comment gagner des milles
| Action | Milles Nimbus |
|---|---|
| Un voyage en train plutôt qu’en avion | 400 |
| Une suggestion retenue | 300 |`,
  },
  'en-US': {
    [contentKeys.faqs]: `## What are Nimbus Miles?
Nimbus Miles reward your business travel and your ideas for travelling better.

## When do my miles arrive?
At the start of the month after the trip, once the expense report is approved.`,
    [contentKeys.privacyPolicy]: `## Your data
Nimbus keeps only what it needs to credit your miles: your name, e-mail address and trips.

## Your rights
Write to customer service to see or correct your data.`,
    [rulesKey(PROGRAM)]: `Club Nimbus rewards employees who travel for Nimbus.

### How to earn miles
| Action | Nimbus Miles |
|---|---|
| A train journey instead of a flight | 400 |
| An idea that is taken up | 300 |`,
  },
};

/** Adds Nimbus Miles in the demo seed's transaction, in a handful of bulk inserts. */
export async function seedDemoNeighbour(ctx: DemoSeedContext): Promise<void> {
  const { trx, now, demoPasswordHash } = ctx;
  const id = NEIGHBOUR_CLIENT_ID;
  const created = now.toISOString();
  await trx
    .insertInto('clients')
    .values({
      id,
      name: 'Nimbus Miles',
      default_locale: 'fr-FR',
      logo: NIMBUS_LOGO_SVG,
      logo_type: 'image/svg+xml',
      brand_color: '#0e7490',
      privacy_notice_version: 0,
      sso_type: 'login_only',
      sso_logout_type: 'login',
      site_name: 'Nimbus',
      site_url: 'https://www.nimbus.example',
      portal_url: 'http://nimbus.localhost:3000',
      password_rules: JSON.stringify({
        minLength: 10,
        maxLength: 128,
        requireUpper: true,
        requireLower: true,
        requireDigit: true,
        requireSymbol: false,
        notUsername: true,
      }),
      // The demo's client that asks for a date of birth (Acme asks for the last name).
      activation_fields: JSON.stringify(['accountNumber', 'dateOfBirth']),
      countries: JSON.stringify([
        { code: 'FR', name: 'France' },
        { code: 'BE', name: 'Belgique' },
      ]),
      support_email: 'aide@nimbus.example',
      created_at: created,
    })
    .execute();
  await trx
    .insertInto('client_hosts')
    .values(NEIGHBOUR_HOSTS.map((hostname) => ({ hostname, client_id: id })))
    .execute();
  await trx
    .insertInto('client_locales')
    .values([
      { client_id: id, code: 'fr-FR', dir: 'ltr', name: 'Français', position: 1 },
      { client_id: id, code: 'en-US', dir: 'ltr', name: 'English', position: 2 },
    ])
    .execute();
  await trx
    .insertInto('media_labels')
    .values([
      { client_id: id, locale: 'fr-FR', forms: JSON.stringify({ one: 'mille Nimbus', many: 'de milles Nimbus', other: 'milles Nimbus' }) },
      { client_id: id, locale: 'en-US', forms: JSON.stringify({ one: 'Nimbus Mile', other: 'Nimbus Miles' }) },
    ])
    .execute();
  await trx
    .insertInto('translations')
    .values([
      { client_id: id, locale: 'fr-FR', key: 'login.heading', text: 'Embarquement' },
      {
        client_id: id,
        locale: 'fr-FR',
        key: 'login.intro',
        text: 'Bienvenue à bord de {clientName}. Connectez-vous pour voir vos milles et vos voyages.',
      },
      { client_id: id, locale: 'en-US', key: 'login.heading', text: 'Boarding' },
      { client_id: id, locale: 'en-US', key: 'login.intro', text: 'Welcome aboard {clientName}. Sign in to see your miles and trips.' },
      { client_id: id, locale: 'fr-FR', key: 'ots.code.placeholder', text: 'NIMB-XXXX-XXXX' },
      { client_id: id, locale: 'en-US', key: 'ots.code.placeholder', text: 'NIMB-XXXX-XXXX' },
    ])
    .execute();
  await trx
    .insertInto('content_entries')
    .values(
      Object.entries(CONTENT).flatMap(([locale, texts]) =>
        Object.entries(texts).map(([key, body]) => ({ client_id: id, locale, key, body, updated_at: created })),
      ),
    )
    .execute();

  const participants: NewParticipant[] = [];
  const entries: LedgerMovement[] = [];
  for (const [index, person] of PARTICIPANTS.entries()) {
    const participantId = randomUUID();
    participants.push(
      withSearchKeys({
        id: participantId,
        client_id: id,
        username: person.username,
        username_key: person.username.toLowerCase(),
        email: `${person.username}@nimbus.example`,
        first_name: person.firstName,
        last_name: person.lastName,
        password_hash: demoPasswordHash,
        status: person.pending ? 'pending' : 'active',
        locale: person.locale,
        account_number: String(2_000_001 + index),
        offers_merchandise: 0,
        offers_experiences: 0,
        // On-the-spot codes are offered (the home shows where to enter one); catalogs are not.
        ots_enabled: 1,
        privacy_ack_version: 0,
        date_of_birth: person.pending?.dateOfBirth ?? null,
        // Moved by the entries below, through the ledger (no entry: no balance yet).
        balance: null,
        created_at: created,
      }),
    );
    person.amounts.forEach((amount, n) => {
      const described =
        amount < 0
          ? demoEntries.experience('spa day', 'ledger.item.spaDay')
          : n % 2 === 0
            ? demoEntries.monthlyTarget(PROGRAM)
            : demoEntries.spotBonus();
      entries.push({
        clientId: id,
        participantId,
        occurredAt: new Date(now.getTime() - (person.amounts.length - n) * 24 * DAY).toISOString(),
        description: described.description,
        descriptionKey: described.descriptionKey,
        ...('descriptionParams' in described ? { descriptionParams: described.descriptionParams } : {}),
        amount,
        kind: described.kind,
      });
    });
  }
  await trx.insertInto('participants').values(participants).execute();
  await trx
    .insertInto('participant_programs')
    .values(participants.map((p) => ({ client_id: id, participant_id: p.id, program_name: PROGRAM, position: 0 })))
    .execute();
  await appendLedgerEntries(trx, id, entries, now);
}
