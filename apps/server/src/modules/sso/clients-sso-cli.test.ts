import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { startTestProvider, type TestProvider } from '../../../test/oidc-provider.ts';
import { loadSsoSettings } from './settings.ts';

describe.each(dialects)('rewards clients sso on %s', (dialect) => {
  let database: TestDatabase;
  let provider: TestProvider;
  const dataDir = mkdtempSync(join(tmpdir(), 'sso-cli-'));
  const env = { DATA_DIR: dataDir };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    provider = await startTestProvider({ redirectUris: ['http://localhost:3000/api/v1.0/sso/callback'], accounts: {} });
  });
  afterAll(async () => {
    await provider.close();
    await database.drop();
  });

  it('checks the issuer through its discovery document and stores the secret encrypted, never printed', async () => {
    const args = [
      'clients',
      'sso',
      '--client',
      'acme',
      '--issuer',
      provider.issuer,
      '--client-id',
      provider.clientId,
      '--client-secret',
      provider.clientSecret,
    ];
    const run = await runRewards(
      database,
      [
        ...args,
        '--site-name',
        'Acme Intranet',
        '--site-url',
        'https://intranet.acme.example',
        '--logout-type',
        'sso',
        '--json',
        '--operator',
        'olga',
      ],
      { env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(provider.clientSecret);
    expect(JSON.parse(run.stdout)).toMatchObject({
      client: 'acme',
      enabled: true,
      issuer: provider.issuer,
      claim: 'preferred_username',
      scopes: 'openid profile',
      ssoType: 'login_and_sso',
      ssoLogoutType: 'sso',
      clientSite: { name: 'Acme Intranet', url: 'https://intranet.acme.example/' },
      endSessionEndpoint: true,
    });

    const row = await database.db.selectFrom('client_sso').selectAll().where('client_id', '=', 'acme').executeTakeFirstOrThrow();
    expect(row.client_secret_enc).not.toContain(provider.clientSecret);
    // The server, sharing DATA_DIR, reads it back.
    expect((await loadSsoSettings(database.db, dataDir, 'acme'))?.provider?.clientSecret).toBe(provider.clientSecret);

    const audit = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'clients.sso.configure')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ client_id: 'acme', actor: 'olga', actor_kind: 'operator' });
    expect(audit.details).not.toContain(provider.clientSecret);
    expect(JSON.parse(audit.details)).toMatchObject({ issuer: provider.issuer, secretChanged: true });

    // Showing the settings prints no secret either.
    const shown = await runRewards(database, ['clients', 'sso', '--client', 'acme'], { env });
    expect(shown.stdout).toContain('Single sign-on of acme: on (type login_and_sso, logout type sso)');
    expect(shown.stdout).toContain('http://localhost/api/v1.0/sso/callback');
    expect(shown.stdout).not.toContain(provider.clientSecret);
  });

  it('refuses an http issuer off loopback and an issuer that does not answer, changing nothing', async () => {
    const plain = await runRewards(
      database,
      [
        'clients',
        'sso',
        '--client',
        'acme',
        '--issuer',
        'http://idp.example.com',
        '--client-id',
        'x',
        '--client-secret',
        'y',
        '--type',
        'sso_only',
      ],
      { env },
    );
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('an http:// issuer is accepted only on a loopback address');

    const down = await runRewards(
      database,
      [
        'clients',
        'sso',
        '--client',
        'acme',
        '--issuer',
        'http://127.0.0.1:9',
        '--client-id',
        'x',
        '--client-secret',
        'y',
        '--type',
        'sso_only',
      ],
      { env },
    );
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('Cannot read the discovery document of http://127.0.0.1:9/');
    const client = await database.db.selectFrom('clients').select('sso_type').where('id', '=', 'acme').executeTakeFirstOrThrow();
    expect(client.sso_type).toBe('login_and_sso');
  });

  it('turns single sign-on off with --disable', async () => {
    const run = await runRewards(database, ['clients', 'sso', '--client', 'acme', '--disable', '--json'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ client: 'acme', enabled: false, ssoType: 'login_only', ssoLogoutType: 'login' });
    expect((await loadSsoSettings(database.db, dataDir, 'acme'))?.provider).toBeUndefined();
  });
});
