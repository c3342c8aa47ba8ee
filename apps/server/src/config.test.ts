import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeSettings, loadConfig, SECRET_VARIABLES } from './config.ts';
import { OWASP_MINIMUM, TEST_ONLY_MINIMUM } from './modules/auth/password.ts';

/** TRUST_PROXY's accepted forms (docs/decisions/041); no database is involved. */
describe('TRUST_PROXY', () => {
  const trust = (value: string | undefined) => loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default, or when set to false or 0', () => {
    expect([trust(undefined), trust('false'), trust('0'), trust(' FALSE ')]).toEqual([false, false, false, false]);
  });

  it('takes a hop count, or addresses, CIDR ranges and named ranges separated by commas', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.5, 10.1.0.0/16,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback']);
    expect(trust('::1,fd00::/8,uniquelocal')).toEqual(['::1', 'fd00::/8', 'uniquelocal']);
  });

  it('refuses true at start, naming TRUST_PROXY and the accepted forms', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY: true would trust every X-Forwarded-For entry.*number of proxies.*addresses/);
  });

  it('refuses what is neither a count nor addresses', () => {
    for (const value of [
      '',
      'yes',
      '11',
      '-1',
      '1.5',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/8/1',
      '10.0.0.5,',
      'proxy.example',
      '300.1.1.1',
    ]) {
      expect(() => trust(value), value).toThrow(/TRUST_PROXY: /);
    }
  });
});

/** PASSWORD_HASH_COST (decision 088): OWASP's minimum unless a test run asks for less, never less in production. */
describe('PASSWORD_HASH_COST', () => {
  it("is OWASP's minimum when unset, empty or owasp", () => {
    for (const env of [{}, { PASSWORD_HASH_COST: '' }, { PASSWORD_HASH_COST: 'owasp' }, { NODE_ENV: 'production' }])
      expect(loadConfig(env).passwordHashCost).toEqual({ memoryCost: 19_456, timeCost: 2 });
    expect(OWASP_MINIMUM).toEqual({ memoryCost: 19_456, timeCost: 2 });
  });

  it("takes argon2's floor for a test run outside production", () => {
    expect(loadConfig({ PASSWORD_HASH_COST: 'test-only-minimum' }).passwordHashCost).toEqual(TEST_ONLY_MINIMUM);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test-only-minimum' }).passwordHashCost).toEqual(TEST_ONLY_MINIMUM);
  });

  it('refuses anything below OWASP in production, and any other value, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: 'test-only-minimum' })).toThrow(
      /PASSWORD_HASH_COST: test-only-minimum is below OWASP's minimum for argon2id \(19 MiB, 2 passes\).*NODE_ENV=production/,
    );
    for (const value of ['cheap', 'OWASP', '1'])
      expect(() => loadConfig({ PASSWORD_HASH_COST: value }), value).toThrow(/PASSWORD_HASH_COST: /);
  });
});

/** NODE_ENV (decision 072): production takes no demo catalog, no published secret, no link in a log line. */
describe('NODE_ENV', () => {
  it('is development unless set to production: the demo catalog with its default credentials, links in the log', () => {
    for (const env of [{}, { NODE_ENV: '' }, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      const config = loadConfig(env);
      expect(config.production).toBe(false);
      expect(config.catalog.demo).toEqual({ partnerId: 'demo-catalog', partnerSecret: expect.any(String), portalUrl: undefined });
      expect(config.mail.linksInLog).toBe(true);
    }
  });

  it('in production serves no demo catalog, so takes no partner secret, and keeps links out of the log', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.production).toBe(true);
    expect(config.catalog.demo).toBeUndefined();
    expect(config.mail.linksInLog).toBe(false);
  });

  it('refuses the demo catalog settings in production, and any other mode, naming them', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO_CATALOG_PARTNER_SECRET: 'x'.repeat(40) })).toThrow(
      /DEMO_CATALOG_PARTNER_SECRET: the demo catalog is never served with NODE_ENV=production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrow(/NODE_ENV: must be development or production/);
  });
});

/** The production profile (decision 081): https origins, TRUST_PROXY named, the drain's time. */
describe('a production server', () => {
  const production = { NODE_ENV: 'production', TRUST_PROXY: 'false' };

  it('must be told TRUST_PROXY (the command need not be), and takes false or the proxy', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, { server: true })).toThrow(
      /TRUST_PROXY: required with NODE_ENV=production: set it to the proxy's address .* or to false/,
    );
    expect(loadConfig({ NODE_ENV: 'production' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }, { server: true }).trustProxy).toBe(false);
    expect(loadConfig(production, { server: true }).trustProxy).toBe(false);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.5' }, { server: true }).trustProxy).toEqual(['10.0.0.5']);
  });

  it('needs an https console origin, unless it is on loopback', () => {
    expect(() => loadConfig({ ...production, CONSOLE_ORIGIN: 'http://console.example.com' })).toThrow(
      /CONSOLE_ORIGIN: must be https:\/\/ with NODE_ENV=production/,
    );
    for (const origin of [
      'https://console.example.com',
      'http://console.localhost:3000',
      'http://localhost:8080',
      'http://127.0.0.2:3000',
      'http://[::1]:3000',
    ])
      expect(loadConfig({ ...production, CONSOLE_ORIGIN: origin }).console.origin, origin).toBe(origin);
    expect(loadConfig({ CONSOLE_ORIGIN: 'http://console.example.com' }).console.origin).toBe('http://console.example.com');
  });

  it('drains for DRAIN_SECONDS, by default 5 in production and 0 in development', () => {
    expect(loadConfig(production).drainSeconds).toBe(5);
    expect(loadConfig({}).drainSeconds).toBe(0);
    expect(loadConfig({ DRAIN_SECONDS: '' }).drainSeconds).toBe(0);
    expect(loadConfig({ ...production, DRAIN_SECONDS: '0' }).drainSeconds).toBe(0);
    expect(loadConfig({ DRAIN_SECONDS: '0.5' }).drainSeconds).toBe(0.5);
    expect(() => loadConfig({ DRAIN_SECONDS: '-1' })).toThrow(/DRAIN_SECONDS/);
  });
});

/** Secrets from files, `NAME_FILE` (decision 081), as systemd credentials and container secrets give them. */
describe('NAME_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };

  it('reads every secret variable from its file, less one trailing newline', () => {
    const key = JSON.stringify({ kty: 'OKP', crv: 'Ed25519', d: 'x', x: 'y' });
    const config = loadConfig({
      DATABASE_URL_FILE: file('database', 'postgres://u:p@db.example/rewards\n'),
      SMTP_URL_FILE: file('smtp', 'smtps://u:p@mail.example:465\r\n'),
      CATALOG_SIGNING_KEY_FILE: file('key', `${key}\n`),
      STAFF_OIDC_ISSUER: 'https://id.example.com',
      STAFF_OIDC_CLIENT_ID: 'rewards',
      STAFF_OIDC_CLIENT_SECRET_FILE: file('oidc', 'secret with a space \n\n'),
      DEMO_CATALOG_PARTNER_SECRET_FILE: file('demo', 'a-demo-secret-of-some-length'),
      SSO_SECRET_KEY_FILE: file('sso', `${'k'.repeat(43)}\n`),
      DATA_DIR: join(dir, 'data'),
    });
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://u:p@db.example/rewards' });
    expect(config.mail.smtpUrl).toBe('smtps://u:p@mail.example:465');
    expect(config.catalog.signingKey).toBe(key);
    // One newline only: the rest is the secret's.
    expect(config.staffSignIn.oidc?.clientSecret).toBe('secret with a space \n');
    expect(config.catalog.demo?.partnerSecret).toBe('a-demo-secret-of-some-length');
    expect(config.catalog.sealingKey).toBe('k'.repeat(43));
  });

  it('covers every secret of the configuration', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      [
        'CATALOG_SIGNING_KEY',
        'DATABASE_URL',
        'DEMO_CATALOG_PARTNER_SECRET',
        'SMTP_URL',
        'SSO_SECRET_KEY',
        'STAFF_OIDC_CLIENT_SECRET',
      ].sort(),
    );
  });

  it('refuses a variable set both ways, and a file it cannot read, naming the variable and never the content', () => {
    const secret = file('smtp-both', 'smtp://user:hunter2@mail.example\n');
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example', SMTP_URL_FILE: secret })).toThrow(/SMTP_URL_FILE: SMTP_URL is set too/);
    const missing = join(dir, 'nothing-here');
    expect(() => loadConfig({ DATABASE_URL_FILE: missing })).toThrow(`DATABASE_URL_FILE: cannot read ${missing} (ENOENT)`);
    expect(() => loadConfig({ DATABASE_URL_FILE: dir })).toThrow(/DATABASE_URL_FILE: cannot read .* \(EISDIR\)/);
    // A bad value read from a file is named like one from the environment, without the value.
    try {
      loadConfig({ SMTP_URL_FILE: file('smtp-bad', 'http://user:hunter2@mail.example\n') });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/SMTP_URL: must start with smtp/);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

/** The start-up line (decision 081): what the process runs with, never a secret. */
describe('describeSettings', () => {
  it('names the engine, origins, proxy trust, metrics, mail and drain, without credentials', () => {
    const line = describeSettings(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://rewards:hunter2@db.internal:5433/rewards_prod?sslmode=require',
        SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465',
        CONSOLE_ORIGIN: 'https://console.example.com',
        TRUST_PROXY: '10.0.0.5,10.1.0.0/16',
        METRICS_PORT: '9464',
        DRAIN_SECONDS: '7',
      }),
      'http://127.0.0.1:9464',
    );
    expect(line).toBe(
      'production; database PostgreSQL db.internal:5433/rewards_prod; console https://console.example.com/console/; ' +
        'proxy trust 10.0.0.5,10.1.0.0/16; metrics http://127.0.0.1:9464/metrics; mail SMTP smtp.example.com:465; drain 7 s',
    );
    expect(line).not.toMatch(/hunter2|s3cret|mailer|rewards:/);
    expect(describeSettings(loadConfig({ DATABASE_URL: 'file:/tmp/r.db', TRUST_PROXY: '1' }))).toBe(
      'development; database SQLite /tmp/r.db; console http://console.localhost:3000/console/; proxy trust 1 hop; metrics off; ' +
        'mail .eml files in /tmp/outbox; drain 0 s',
    );
  });
});
