import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, ClientData, type UserData } from '@rewards/contract';
import { seedDemo } from '../db/seed/demo.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { withSearchKeys } from '../modules/participants/search-keys.ts';
import { partnerSecretHash } from '../modules/catalog/partner-service.ts';
import { appOver } from '../../test/app-over.ts';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { seedOtherClient } from '../../test/other-client.ts';

const ORIGIN = 'https://rewards.initrode.example';
/** Each run of the command is its own Node process: a few seconds each on a busy machine. */
const SLOW = 180_000;
const PASSWORD = 'Initrode-Pass-42';

/** A real 2x1 PNG, as an image editor writes it. */
function pngBytes(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const pixels = deflateSync(Buffer.from([0, 0x0e, 0x74, 0x90, 0xff, 0xff, 0xff]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Outcome {
  client: string;
  changed: string[];
  hostsAdded: string[];
  secrets: Array<{ partnerId: string; secret: string }>;
}

describe.each(dialects)('rewards clients on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await seedOtherClient(database.db);
    dir = mkdtempSync(join(tmpdir(), 'rewards-clients-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  it(
    'creates a client on a new origin, where its participant signs in and sees its branding',
    async () => {
      const png = pngBytes();
      const run = await runRewards(database, [
        'clients',
        'create',
        '--client',
        'initrode',
        '--name',
        'Initrode Perks',
        '--origin',
        ORIGIN,
        '--logo',
        file('logo.png', png),
        '--brand-color',
        '#0E7490',
        '--locale',
        'fr-FR',
        '--locale',
        'en-US',
        '--locale',
        'ar',
        '--media-label',
        'fr-FR:one=étoile;many=d’étoiles;other=étoiles',
        '--media-label',
        'en-US:one=star;other=stars',
        '--password-rules',
        'min=12,max=64,lower,digit,not-username',
        '--activation-fields',
        'accountNumber,emailAddress',
        '--merchandise',
        'https://shop.initrode.example/punchout',
        '--merchandise-partner',
        'initrode-shop',
        '--travel',
        'https://travel.initrode.example',
        '--support-email',
        'help@initrode.example',
        '--privacy-notice-version',
        '2',
        '--operator',
        'ops-olga',
        '--json',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const outcome = JSON.parse(run.stdout) as Outcome;
      expect(outcome).toMatchObject({ client: 'initrode', hostsAdded: ['rewards.initrode.example'] });
      // The partner secret is printed this once; the database keeps only its hash.
      const [issued] = outcome.secrets;
      expect(issued?.partnerId).toBe('initrode-shop');
      expect(issued?.secret.length).toBeGreaterThanOrEqual(40);
      const partner = await database.db
        .selectFrom('catalog_partners')
        .selectAll()
        .where('id', '=', 'initrode-shop')
        .executeTakeFirstOrThrow();
      expect(partner).toMatchObject({ client_id: 'initrode', secret_hash: partnerSecretHash(issued?.secret ?? '') });

      await database.db
        .insertInto('participants')
        .values(
          withSearchKeys({
            id: randomUUID(),
            client_id: 'initrode',
            username: 'demo',
            username_key: 'demo',
            email: 'demo@initrode.example',
            first_name: 'Ida',
            last_name: 'Initrode',
            password_hash: await hashPassword(PASSWORD),
            status: 'active',
            locale: 'fr-FR',
            account_number: '42',
            offers_merchandise: 1,
            offers_experiences: 0,
            ots_enabled: 0,
            privacy_ack_version: 2,
            balance: null,
            created_at: new Date().toISOString(),
          }),
        )
        .execute();
      const portal = await appOver(database);
      try {
        const data = ClientData.parse((await portal.api('GET', apiPaths.clientData, { origin: ORIGIN })).json());
        expect(data.clientBranding).toMatchObject({
          clientName: 'Initrode Perks',
          brandColor: '#0e7490',
          clientLogo: expect.stringMatching(/^\/brand\/initrode\/logo\.png\?v=/) as unknown,
          activationFields: ['accountNumber', 'emailAddress'],
        });
        expect(data.locale).toEqual({ code: 'fr-FR', dir: 'ltr' });
        expect(data.localeList).toEqual([
          { code: 'fr-FR', dir: 'ltr', name: 'Français' },
          { code: 'en-US', dir: 'ltr', name: 'English' },
          { code: 'ar', dir: 'rtl', name: 'العربية' },
        ]);
        expect(data.clientBranding.mediaLabels.find((m) => m.locale === 'fr-FR')?.forms).toEqual({
          one: 'étoile',
          many: 'd’étoiles',
          other: 'étoiles',
        });
        expect(data.passwordRules).toEqual({
          minLength: 12,
          maxLength: 64,
          requireUpper: false,
          requireLower: true,
          requireDigit: true,
          requireSymbol: false,
          notUsername: true,
        });
        expect(data.privacyNoticeVersion).toBe(2);
        expect(data.catalogs?.travelUrl).toBe('https://travel.initrode.example');
        const logo = await portal.app.inject({ method: 'GET', url: data.clientBranding.clientLogo });
        expect(logo.headers['content-type']).toBe('image/png');
        expect(logo.rawPayload.equals(png)).toBe(true);

        const login = await portal.api('POST', apiPaths.login, { origin: ORIGIN, body: { username: 'demo', password: PASSWORD } });
        expect(login.statusCode).toBe(200);
        expect(login.json<UserData>().firstName).toBe('Ida');
        // The same username on Acme's origin is Acme's Dana, not Ida.
        expect(
          (await portal.api('POST', apiPaths.login, { origin: 'http://localhost:3000', body: { username: 'demo', password: PASSWORD } }))
            .statusCode,
        ).toBe(401);
      } finally {
        await portal.close();
      }

      const shown = await runRewards(database, ['clients', 'show', '--client', 'initrode']);
      expect(shown.stdout).toContain('Initrode Perks');
      expect(shown.stdout).toContain('https://shop.initrode.example/punchout (partner initrode-shop)');
      // No --portal-url: links in mails start at https:// and the first origin (decision 041).
      expect(shown.stdout).toMatch(/^Portal address +https:\/\/rewards\.initrode\.example \(links in mails\)$/m);
      expect(shown.stdout).not.toContain(issued?.secret);
      expect(shown.stdout).not.toContain(partner.secret_hash);
    },
    SLOW,
  );

  it(
    'updates only the settings given, and refuses bad input in one line without changing anything',
    async () => {
      const outcome = await rewardsJson<Outcome>(database, [
        'clients',
        'update',
        '--client',
        'initrode',
        '--name',
        'Initrode Rewards',
        '--origin',
        'http://127.0.0.3:3000',
        '--default-locale',
        'en-US',
        '--new-partner-secret',
        'initrode-shop',
        '--portal-url',
        'HTTP://127.0.0.3:3000/',
      ]);
      expect(outcome.changed.sort()).toEqual(['defaultLocale', 'name', 'origins', 'partnerSecrets', 'portalUrl']);
      const before = await rewardsJson<Record<string, unknown>>(database, ['clients', 'show', '--client', 'initrode']);
      expect(before).toMatchObject({
        name: 'Initrode Rewards',
        defaultLocale: 'en-US',
        origins: ['127.0.0.3', 'rewards.initrode.example'],
        supportEmail: 'help@initrode.example',
        portalUrl: 'http://127.0.0.3:3000',
      });
      const auditBefore = await database.db.selectFrom('audit_log').select('id').execute();

      const bad: Array<[string[], string]> = [
        [['--origin', 'https://rewards.globex.example'], 'rewards: --origin: rewards.globex.example already belongs to client globex'],
        [
          ['--name', 'Changed', '--locale', 'fr-FR', '--default-locale', 'en-US'],
          'rewards: --default-locale: en-US must be one of the locales (fr-FR)',
        ],
        [
          ['--media-label', 'en-US:few=a few stars;other=stars'],
          'rewards: --media-label: "few" is not a plural form of en-US (use one, other)',
        ],
        [
          ['--media-label', 'de-DE:one=Stern;other=Sterne'],
          "rewards: --media-label: de-DE is not one of the client's locales (fr-FR, en-US, ar)",
        ],
        [['--password-rules', 'min=12,max=300'], 'rewards: --password-rules: max must be at most 200'],
        [
          ['--logo', file('bad.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')],
          `rewards: --logo: ${join(dir, 'bad.svg')} was refused: the attribute onload on <svg> (event handlers are not allowed); a logo must be a plain drawing: shapes, paths, groups, gradients and text, referring only to itself`,
        ],
        [['--logo', file('fake.png', '<svg/>')], `rewards: --logo: ${join(dir, 'fake.png')} is not a PNG image`],
        [
          ['--experiences', 'https://x.example', '--experiences-partner', 'demo-catalog'],
          'rewards: --experiences-partner: demo-catalog belongs to another client; choose another',
        ],
        [
          ['--portal-url', 'https://rewards.globex.example'],
          'rewards: --portal-url: rewards.globex.example is not an origin of initrode (add it with --origin)',
        ],
        [
          ['--portal-url', 'ftp://127.0.0.3'],
          'rewards: --portal-url: "ftp://127.0.0.3" is not an origin such as https://rewards.example.com (http or https, no path, query or credentials)',
        ],
        [
          ['--remove-origin', '127.0.0.3'],
          'rewards: the portal address http://127.0.0.3:3000 would not open initrode (origins: rewards.initrode.example); give --portal-url too',
        ],
      ];
      for (const [args, message] of bad) {
        const run = await runRewards(database, ['clients', 'update', '--client', 'initrode', ...args]);
        expect([args.join(' '), run.code, run.stderr]).toEqual([args.join(' '), 2, `${message}\n`]);
      }
      const unknown = await runRewards(database, ['clients', 'update', '--client', 'nobody', '--name', 'X']);
      expect(unknown.stderr).toMatch(/^rewards: Unknown client "nobody" \(known: acme, globex, initrode/);
      const taken = await runRewards(database, ['clients', 'create', '--client', 'globex', '--name', 'X', '--origin', 'x.example']);
      expect([taken.code, taken.stderr]).toEqual([2, 'rewards: Client "globex" already exists (use clients update)\n']);

      expect(await rewardsJson(database, ['clients', 'show', '--client', 'initrode'])).toEqual(before);
      expect(await database.db.selectFrom('audit_log').select('id').execute()).toHaveLength(auditBefore.length);
    },
    SLOW,
  );

  it(
    'imports translations from JSON and .properties, reports missing, extra and placeholder mismatches, and re-imports idempotently',
    async () => {
      const json = file(
        'bundles/fr-FR.json',
        JSON.stringify({
          login: { heading: 'Bienvenue chez Initrode', intro: 'Connectez-vous à {clientName}.' },
          hoem: { heading: 'typo' },
          home: { welcome: 'Bonjour {prenom}' },
        }),
      );
      const first = await rewardsJson<{
        locale: string;
        added: number;
        rejected: number;
        extra: string[];
        missing: string[];
        placeholderMismatches: Array<{ key: string; imported: boolean }>;
      }>(database, ['clients', 'translations', 'import', json, '--client', 'initrode']);
      expect(first).toMatchObject({ locale: 'fr-FR', added: 3, rejected: 1, extra: ['hoem.heading'], missing: [] });
      expect(first.placeholderMismatches.map((m) => [m.key, m.imported])).toEqual([['home.welcome', false]]);

      // German has no shipped bundle: what the file lacks is missing and would show in English.
      await rewardsJson(database, [
        'clients',
        'update',
        '--client',
        'initrode',
        '--locale',
        'fr-FR',
        '--locale',
        'en-US',
        '--locale',
        'ar',
        '--locale',
        'de-DE',
      ]);
      const properties = file(
        'messages_de_DE.properties',
        [
          '# Initrode, Deutsch',
          '! generated',
          'login.heading = Willkommen bei Initrode, sch\\u00f6n',
          'login.username:Benutzername',
          'login.password  Pass\\',
          '    wort',
          'login.intro=Melden Sie sich bei {clientName} an.',
          '',
        ].join('\n'),
      );
      const german = await rewardsJson<{ locale: string; added: number; missing: string[] }>(database, [
        'clients',
        'translations',
        'import',
        properties,
        '--client',
        'initrode',
      ]);
      expect(german.locale).toBe('de-DE');
      expect(german.added).toBe(4);
      expect(german.missing.length).toBeGreaterThan(50);
      expect(german.missing).not.toContain('login.heading');
      const rows = await database.db
        .selectFrom('translations')
        .select(['key', 'text'])
        .where('client_id', '=', 'initrode')
        .where('locale', '=', 'de-DE')
        .orderBy('key')
        .execute();
      expect(Object.fromEntries(rows.map((r) => [r.key, r.text]))).toEqual({
        'login.heading': 'Willkommen bei Initrode, schön',
        'login.intro': 'Melden Sie sich bei {clientName} an.',
        'login.password': 'Passwort',
        'login.username': 'Benutzername',
      });

      // Again, with one text changed: one update, the rest unchanged, nothing twice.
      writeFileSync(
        json,
        JSON.stringify({
          login: { heading: 'Bienvenue chez Initrode !', intro: 'Connectez-vous à {clientName}.' },
          'hoem.heading': 'typo',
        }),
      );
      const again = await rewardsJson<{ added: number; updated: number; unchanged: number }>(database, [
        'clients',
        'translations',
        'import',
        json,
        '--client',
        'initrode',
        '--locale',
        'fr_fr',
      ]);
      expect(again).toMatchObject({ added: 0, updated: 1, unchanged: 2 });

      // A running portal reads configuration through its cache; a fresh one sees the import at once.
      const portal = await appOver(database, { CLIENT_CACHE_SECONDS: '60' });
      try {
        const bundle = (await portal.api('GET', apiPaths.bundle('fr-FR'), { origin: ORIGIN })).json<{
          bundleList: Record<string, { properties: Record<string, string> }>;
        }>();
        expect(bundle.bundleList['fr-FR']?.properties['login.heading']).toBe('Bienvenue chez Initrode !');
        const acme = (await portal.api('GET', apiPaths.bundle('fr-FR'), { origin: 'http://localhost:3000' })).json<{
          bundleList: Record<string, { properties: Record<string, string> }>;
        }>();
        expect(acme.bundleList['fr-FR']?.properties['login.heading']).not.toContain('Initrode');
      } finally {
        await portal.close();
      }

      const notOffered = await runRewards(database, [
        'clients',
        'translations',
        'import',
        json,
        '--client',
        'initrode',
        '--locale',
        'it-IT',
      ]);
      expect([notOffered.code, notOffered.stderr]).toEqual([
        2,
        "rewards: it-IT is not one of initrode's locales (fr-FR, en-US, ar, de-DE); add it with clients update --locale\n",
      ]);
    },
    SLOW,
  );

  it(
    'imports rules, FAQs and privacy texts from a directory or JSON, served by the content API',
    async () => {
      const content = join(dir, 'content');
      file('content/fr-FR/faqs.md', '## Comment gagner des étoiles ?\nEn vendant.');
      file('content/en-US/faqs.md', '## How do I earn stars?\nBy selling.');
      file('content/en-US/rules.Initrode Sales.md', '### Who\nEveryone in sales.');
      const report = await rewardsJson<{ added: number; programsWithoutParticipants: string[] }>(database, [
        'clients',
        'content',
        'import',
        content,
        '--client',
        'initrode',
      ]);
      expect(report).toMatchObject({ added: 3, programsWithoutParticipants: ['Initrode Sales'] });
      const json = file(
        'content.json',
        JSON.stringify({ 'en-US': { privacyPolicy: 'We keep **little**.', faqs: '## How do I earn stars?\nBy selling.' } }),
      );
      expect(await rewardsJson(database, ['clients', 'content', 'import', json, '--client', 'initrode'])).toMatchObject({
        added: 1,
        unchanged: 1,
        updated: 0,
      });

      const portal = await appOver(database);
      try {
        const faqs = await portal.api('GET', `${apiPaths.contentKey('faqs')}?locale=fr-FR`, { origin: ORIGIN });
        expect(faqs.json()).toMatchObject({
          properties: [{ locale: 'fr-FR', value: expect.stringContaining('Comment gagner des étoiles') as string }],
        });
        const policy = await portal.api('GET', `${apiPaths.contentKey('privacyPolicy')}?locale=en-US`, { origin: ORIGIN });
        expect(policy.json()).toMatchObject({ properties: [{ value: expect.stringContaining('<strong>little</strong>') as string }] });
      } finally {
        await portal.close();
      }
      const bad = await runRewards(database, [
        'clients',
        'content',
        'import',
        file('wrong.json', JSON.stringify({ 'en-US': { terms: 'x' } })),
        '--client',
        'initrode',
      ]);
      expect(bad.stderr).toContain('"terms" is not a content key');
    },
    SLOW,
  );

  it(
    'records every change in the audit log, with field names, before and after, counts and never a secret',
    async () => {
      const entries = await rewardsJson<Array<{ action: string; actor: string; details: Record<string, unknown> }>>(database, [
        'audit',
        '--client',
        'initrode',
        '--limit',
        '100',
      ]);
      expect(entries.map((e) => e.action).reverse()).toEqual([
        'clients.create',
        'clients.update',
        'clients.translations.import',
        'clients.update',
        'clients.translations.import',
        'clients.translations.import',
        'clients.content.import',
        'clients.content.import',
      ]);
      expect(entries.at(-1)).toMatchObject({
        actor: 'ops-olga',
        details: { originsAdded: ['rewards.initrode.example'], partnerSecretsIssued: ['initrode-shop'] },
      });
      // An update says what each setting was and became (a new secret: only whose).
      const [localesUpdate, firstUpdate] = entries.filter((e) => e.action === 'clients.update');
      expect(firstUpdate?.details.changes).toEqual({
        name: { from: 'Initrode Perks', to: 'Initrode Rewards' },
        defaultLocale: { from: 'fr-FR', to: 'en-US' },
        portalUrl: { from: 'https://rewards.initrode.example', to: 'http://127.0.0.3:3000' },
        partnerSecrets: { from: null, to: ['initrode-shop'] },
      });
      expect(localesUpdate?.details.changes).toEqual({
        locales: { from: ['fr-FR', 'en-US', 'ar'], to: ['fr-FR', 'en-US', 'ar', 'de-DE'] },
      });
      const secrets = await database.db.selectFrom('catalog_partners').select('secret_hash').where('client_id', '=', 'initrode').execute();
      expect(JSON.stringify(entries)).not.toContain(secrets[0]?.secret_hash);
      expect(entries.find((e) => e.action === 'clients.translations.import')?.details).toMatchObject({
        locale: 'fr-FR',
        updated: 1,
        unchanged: 2,
      });
    },
    SLOW,
  );

  it(
    'revokes a catalog partner once no catalog names it; it is then shown as revoked and named by no catalog again',
    async () => {
      const revoke = () =>
        runRewards(database, ['clients', 'revoke-partner', '--client', 'initrode', '--partner', 'initrode-shop', '--reason', 'left']);
      const named = await revoke();
      expect(named.code).not.toBe(0);
      expect(named.stderr.trim()).toBe(
        'rewards: The merchandise catalog names partner initrode-shop: point it to another partner or withdraw it first; nothing was revoked',
      );
      await rewardsJson(database, ['clients', 'update', '--client', 'initrode', '--merchandise', 'none']);
      const done = await revoke();
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain('Revoked partner initrode-shop of initrode');
      const shown = await runRewards(database, ['clients', 'show', '--client', 'initrode']);
      expect(shown.stdout).toMatch(/initrode-shop \(since \d{4}-\d\d-\d\d, revoked \d{4}-\d\d-\d\d\)/);
      const again = await runRewards(database, [
        'clients',
        'update',
        '--client',
        'initrode',
        '--merchandise',
        'https://shop.initrode.example/punchout',
        '--merchandise-partner',
        'initrode-shop',
      ]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/Partner initrode-shop was revoked on .*: a catalog cannot name it again; choose a new partner id/);
      const audit = await database.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('action', '=', 'clients.partner-revoked')
        .execute();
      expect(audit.map((a) => JSON.parse(a.details) as unknown)).toEqual([{ partnerId: 'initrode-shop', reason: 'left' }]);
    },
    SLOW,
  );

  it(
    "removes the client's own text of a key, then the shipped one shows; a second removal changes nothing",
    async () => {
      const removal = (flags: string) => ['clients', 'translations', 'remove', '--client', 'initrode', ...flags.split(' ')];
      const remove = () =>
        rewardsJson<{ removed: boolean; text: string | null; source: string }>(database, [
          ...removal('--locale fr-FR --key login.heading --reason'),
          'back to the shipped wording',
        ]);
      const first = await remove();
      expect(first).toMatchObject({ removed: true, source: 'shipped' });
      expect(first.text).toBe('Connexion');
      expect(await remove()).toMatchObject({ removed: false, source: 'shipped' });
      const noReason = await runRewards(database, removal('--locale fr-FR --key x'));
      expect(noReason.stderr.trim()).toBe('rewards: --reason <text> is required');
      const badLocale = await runRewards(database, removal('--locale it-IT --key login.heading --reason x'));
      expect(badLocale.stderr.trim()).toMatch(/^rewards: it-IT is not one of initrode's locales/);
      const audit = await database.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'clients.translations.remove')
        .execute();
      expect(audit.map((a) => JSON.parse(a.details) as Record<string, unknown>)).toEqual([
        expect.objectContaining({
          locale: 'fr-FR',
          key: 'login.heading',
          from: 'Bienvenue chez Initrode !',
          to: 'Connexion',
          reason: 'back to the shipped wording',
        }),
      ]);
    },
    SLOW,
  );

  it(
    'removes a content text in one locale; a second removal finds nothing',
    async () => {
      const remove = () =>
        rewardsJson<{ removed: boolean }>(
          database,
          'clients content remove --client initrode --locale fr-FR --key faqs --reason gone'.split(' '),
        );
      expect(await remove()).toMatchObject({ removed: true });
      expect(await remove()).toMatchObject({ removed: false });
      const row = await database.db
        .selectFrom('content_entries')
        .select('key')
        .where('client_id', '=', 'initrode')
        .where('locale', '=', 'fr-FR')
        .where('key', '=', 'faqs')
        .executeTakeFirst();
      expect(row).toBeUndefined();
    },
    SLOW,
  );
});
