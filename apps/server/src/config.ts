import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { LimitPolicy } from './modules/limits/policy.ts';
import { checkIssuer } from './modules/sso/provider.ts';
import { useConfiguredSecretKey } from './modules/sso/secret-box.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from './db/seed/demo-catalog.ts';
import { productionOriginProblem } from './http/production-origins.ts';
import { OWASP_MINIMUM, TEST_ONLY_MINIMUM, type PasswordHashCost } from './modules/auth/password.ts';

/** Fastify's names for address ranges (proxy-addr's): 127.0.0.1/8 and ::1, fe80::/10 and 169.254.0.0/16, fc00::/7 and the private IPv4 ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const TRUST_PROXY_FORMS =
  'false, the number of proxies in front of the portal (e.g. 1), or their addresses and CIDR ranges separated by commas (e.g. 10.0.0.5,10.1.0.0/16 or loopback)';

/**
 * TRUST_PROXY (docs/decisions/041): whose X-Forwarded-For / -Proto / -Host to believe. `true`
 * would believe the whole X-Forwarded-For, whose left-most entries the caller writes, so it is
 * refused; a hop count or the proxies' addresses take the client address the proxy appended.
 */
const TrustProxy = z.string().transform((raw, ctx): false | number | string[] => {
  const value = raw.trim().toLowerCase();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') {
    ctx.addIssue({
      code: 'custom',
      message: `true would trust every X-Forwarded-For entry, which callers can write; use ${TRUST_PROXY_FORMS}`,
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 10) return hops;
    ctx.addIssue({ code: 'custom', message: `at most 10 proxies; use ${TRUST_PROXY_FORMS}` });
    return z.NEVER;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong === undefined) return entries;
  ctx.addIssue({ code: 'custom', message: `"${wrong.slice(0, 60)}" is not an address or CIDR range; use ${TRUST_PROXY_FORMS}` });
  return z.NEVER;
});

const EnvSchema = z.object({
  // production: no demo seeded, served or accepted, no live link in a log line (decision 072); anything
  // else (unset, development, test) is development, where `npm start` opens the demo. Empty counts as unset.
  NODE_ENV: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['development', 'test', 'production'], 'must be development or production (test counts as development)').default('development'),
  ),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, 'must start with file: or postgres://')
    .default('file:./data/rewards.db'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ACCOUNT_PER_DAY: z.coerce.number().int().min(1).default(20),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  LOGIN_THROTTLE_MINUTES: z.coerce.number().int().min(1).default(15),
  OTS_MAX_FAILURES_PER_PARTICIPANT: z.coerce.number().int().min(1).default(10),
  OTS_THROTTLE_MINUTES: z.coerce.number().int().min(1).default(15),
  // How long a process keeps a client's configuration (hosts, locales, labels, bundles) before
  // reading it again: an operator's change shows within this time (docs/decisions/014); 0: off.
  CLIENT_CACHE_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // The staff console's build (decision 050); unset: apps/console/dist beside the server, empty: none.
  CONSOLE_DIST: z.string().optional(),
  // Unset is false, except for a production server, which must be told (decision 081).
  TRUST_PROXY: TrustProxy.optional(),
  // SIGTERM: seconds /readyz answers 503 while requests are still served, for the proxy's health check to notice
  // (decision 081); unset: 5 in production, 0 in development (no proxy, and a restart under watch should not wait).
  DRAIN_SECONDS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().min(0).max(300).optional()),
  // Catalogs (issue 5, docs/decisions/009): the punch-out signing key as a private JWK in JSON;
  // absent, one is generated once and kept in DATA_DIR (default: beside the SQLite file, else ./data).
  CATALOG_SIGNING_KEY: z
    .string()
    .max(10_000)
    .refine((v) => {
      try {
        return typeof JSON.parse(v) === 'object';
      } catch {
        return false;
      }
    }, 'must be a private JWK in JSON')
    .optional(),
  DATA_DIR: z.string().min(1).optional(),
  // The key that seals staff TOTP secrets and single-sign-on secrets (decision 081): 32 bytes in
  // base64url, the content of DATA_DIR/sso-secret-key; absent, that file is made once and used.
  SSO_SECRET_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{43}=?$/,
      'must be 32 bytes in base64url, as in DATA_DIR/sso-secret-key (make one: openssl rand 32 | basenc --base64url)',
    )
    .optional(),
  // The demo catalog's credentials: in development only, where the public demo secret is the default.
  DEMO_CATALOG_PARTNER_ID: z.string().min(1).max(100).optional(),
  DEMO_CATALOG_PARTNER_SECRET: z.string().min(16).max(200).optional(),
  DEMO_CATALOG_PORTAL_URL: z.string().url().optional(),
  // Mail (issue 7, docs/decisions/017): absent SMTP_URL, mails are written to DATA_DIR/outbox/.
  SMTP_URL: z
    .string()
    .max(2000)
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).default('no-reply@rewards.localhost'),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  // Account lifecycle (issue 7): how long a password reset link works.
  RESET_LINK_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  // The staff console (issue 17, docs/decisions/046): its own origin, never a client's.
  CONSOLE_ORIGIN: z
    .string()
    .max(200)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v.replace(/\/$/, '');
      } catch {
        return false;
      }
    }, 'must be an origin such as https://console.example.com (no path)')
    .transform((v) => new URL(v).origin)
    .default('http://console.localhost:3000'),
  // Staff sign-in through the installation's own OpenID provider (issue 20 §6, decision 068): all three or none.
  STAFF_OIDC_ISSUER: z
    .string()
    .max(500)
    .refine((v) => typeof checkIssuer(v) !== 'string', {
      error: (issue) => checkIssuer(String(issue.input)) as string,
    })
    .optional(),
  STAFF_OIDC_CLIENT_ID: z.string().min(1).max(200).optional(),
  STAFF_OIDC_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  // The button's words: "Sign in with <name>".
  STAFF_OIDC_NAME: z.string().trim().min(1).max(60).default('your organisation'),
  // acr values the provider sends for a multi-factor sign-in (comma-separated); amr methods such as mfa or otp count anyway.
  STAFF_OIDC_MFA_ACR: z
    .string()
    .max(2000)
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .default([]),
  // off: the provider only (refused unless a provider is configured, so nobody is locked out).
  STAFF_PASSWORD_SIGN_IN: z.enum(['on', 'off']).default('on'),
  // Prometheus' /metrics on a listener of its own (decision 079); unset or empty: none. Never the public port.
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Webhooks (decision 084): on, a webhook URL may be http and reach this machine's loopback (a receiver
  // in development or a test); off, https only and never an inward address. Unset: off in production, on otherwise.
  WEBHOOKS_ALLOW_LOOPBACK: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['on', 'off']).optional()),
  // argon2id's cost for new password hashes (decision 088): OWASP's minimum; test-only-minimum is argon2's
  // floor, for test runs, and refused in production. Hashes of any cost keep verifying. Empty counts as unset.
  PASSWORD_HASH_COST: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['owasp', 'test-only-minimum']).default('owasp')),
});

/** The installation's OpenID provider for staff (decision 068); the secret is only ever handed to openid-client. */
export interface StaffOidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** "Sign in with <name>". */
  name: string;
  /** acr values that mean a multi-factor sign-in at this provider. */
  mfaAcr: string[];
}

const STAFF_OIDC_VARIABLES = ['STAFF_OIDC_ISSUER', 'STAFF_OIDC_CLIENT_ID', 'STAFF_OIDC_CLIENT_SECRET'] as const;
const DEMO_CATALOG_VARIABLES = ['DEMO_CATALOG_PARTNER_ID', 'DEMO_CATALOG_PARTNER_SECRET', 'DEMO_CATALOG_PORTAL_URL'] as const;

/** The three settings together or none; password sign-in off only with a provider; no demo catalog in production. */
const EnvChecked = EnvSchema.superRefine((e, ctx) => {
  // Said rather than ignored: an operator who sets them expects a catalog that production never serves (decision 072).
  if (e.NODE_ENV === 'production')
    for (const name of DEMO_CATALOG_VARIABLES.filter((n) => e[n] !== undefined))
      ctx.addIssue({ code: 'custom', path: [name], message: 'the demo catalog is never served with NODE_ENV=production; unset it' });
  const set = STAFF_OIDC_VARIABLES.filter((name) => e[name] !== undefined);
  if (set.length > 0 && set.length < STAFF_OIDC_VARIABLES.length) {
    for (const name of STAFF_OIDC_VARIABLES.filter((n) => e[n] === undefined))
      ctx.addIssue({ code: 'custom', path: [name], message: `required with ${set.join(', ')}` });
  }
  if (e.STAFF_PASSWORD_SIGN_IN === 'off' && set.length === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['STAFF_PASSWORD_SIGN_IN'],
      message: 'off needs STAFF_OIDC_ISSUER, STAFF_OIDC_CLIENT_ID and STAFF_OIDC_CLIENT_SECRET (else nobody could sign in)',
    });
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: /metrics is never served on the public port' });
  const consoleOrigin = e.NODE_ENV === 'production' ? productionOriginProblem(e.CONSOLE_ORIGIN) : undefined;
  if (consoleOrigin) ctx.addIssue({ code: 'custom', path: ['CONSOLE_ORIGIN'], message: consoleOrigin });
  if (e.NODE_ENV === 'production' && e.PASSWORD_HASH_COST !== 'owasp')
    ctx.addIssue({
      code: 'custom',
      path: ['PASSWORD_HASH_COST'],
      message: `${e.PASSWORD_HASH_COST} is below OWASP's minimum for argon2id (19 MiB, 2 passes) and is for test runs only; unset it or set owasp with NODE_ENV=production`,
    });
});

/**
 * The variables that hold a secret: each may come from a file instead, `NAME_FILE`, the way
 * systemd credentials and container secrets deliver them (decision 081).
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'SMTP_URL',
  'CATALOG_SIGNING_KEY',
  'STAFF_OIDC_CLIENT_SECRET',
  'DEMO_CATALOG_PARTNER_SECRET',
  'SSO_SECRET_KEY',
] as const;

/** Every variable loadConfig reads: deploy/rewards.env.example has a line for each (deploy-files.test.ts holds them together). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(EnvSchema.shape), ...SECRET_VARIABLES.map((name) => `${name}_FILE`)];

/**
 * The environment with each `NAME_FILE` read into `NAME` (its content less one trailing newline,
 * which `echo` and editors add); problems by variable. Both set is refused (which one would win is
 * a guess); an unreadable file is named by its variable and path, never by what it holds.
 */
function withSecretFiles(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; problems: string[] } {
  const out: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined) {
      problems.push(`${name}_FILE: ${name} is set too; set one of them`);
      continue;
    }
    try {
      out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { env: out, problems };
}

export interface DemoCatalogConfig {
  partnerId: string;
  partnerSecret: string;
  portalUrl: string | undefined;
}

export type DatabaseConfig = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

export interface Config {
  /** NODE_ENV=production (decision 072): no demo seeded or served, a start refused on the demo's published credentials, no link in a log line. */
  production: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  session: { idleMinutes: number; maxHours: number };
  /** Attempts per account, address and participant (sign-in, activation, recovery, codes; decision 040). */
  limits: LimitPolicy;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Seconds a client's configuration is served from the process's read cache. */
  clientCacheSeconds: number;
  /** Folder of the built web app; undefined serves the API only (tests). */
  webDist: string | undefined;
  /** Folder of the built staff console (decision 050), served on CONSOLE_ORIGIN; undefined: none. */
  consoleDist: string | undefined;
  /**
   * Fastify's trustProxy: false (no proxy: the socket's address), the number of proxies in front
   * (the client address is the one that many entries from the right of X-Forwarded-For), or the
   * proxies' addresses and ranges. Never true (docs/decisions/041).
   */
  trustProxy: false | number | string[];
  /** SIGTERM: seconds /readyz answers 503 before the listener closes (decision 081). */
  drainSeconds: number;
  catalog: {
    /** Private JWK (JSON) that signs punch-out links; undefined: generated and kept in dataDir. */
    signingKey: string | undefined;
    dataDir: string;
    /** The sealing key (base64url) from SSO_SECRET_KEY; undefined: DATA_DIR/sso-secret-key, made once. */
    sealingKey: string | undefined;
    /**
     * The demo catalog's own partner credentials, and where it reaches the portal (default: its own
     * listening address); undefined in production, where /demo-catalog/ is not served.
     */
    demo: DemoCatalogConfig | undefined;
  };
  mail: {
    /** SMTP server to send through; undefined: each mail is written as an .eml file into outboxDir. */
    smtpUrl: string | undefined;
    /** Sender address, or "Name <address>"; without a name the client's name is shown. */
    from: string;
    /** Attempts before a mail is given up as failed. */
    maxAttempts: number;
    outboxDir: string;
    /** Whether the log line of a participant's mail written to outboxDir may carry its link: in development only. */
    linksInLog: boolean;
  };
  /** Account lifecycle (issue 7): minutes a password reset link works. */
  account: { resetLinkMinutes: number };
  /** The staff console (docs/decisions/046): its origin, and the host name its API answers on. */
  console: { origin: string; hostname: string };
  /** How staff sign in (decision 068): the password (then our second factor), the installation's OpenID provider, or both. */
  staffSignIn: { password: boolean; oidc: StaffOidcConfig | undefined };
  /** Where Prometheus scrapes /metrics (decision 079), a listener apart from the portal's; undefined: no metrics. */
  metrics: { port: number; host: string } | undefined;
  /** Webhooks (decision 084): whether an endpoint may be http and on this machine's loopback (development, tests). */
  webhooks: { allowLoopback: boolean };
  /** argon2id's cost for new password hashes (decision 088): OWASP's minimum, lower only outside production; applied by usePasswordHashCost at start. */
  passwordHashCost: PasswordHashCost;
}

export function databaseConfigFromUrl(url: string): DatabaseConfig {
  if (url.startsWith('file:')) return { dialect: 'sqlite', path: url.slice('file:'.length) };
  return { dialect: 'postgres', url };
}

export interface LoadOptions {
  /**
   * The portal server's start (main.ts), not the `rewards` command: in production it must be told
   * TRUST_PROXY, which only the server uses (decision 081).
   */
  server?: boolean;
}

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const { env, problems } = withSecretFiles(rawEnv);
  const parsed = EnvChecked.safeParse(env);
  const lines = problems.map((problem) => `  ${problem}`);
  if (!parsed.success) lines.push(...parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`));
  // Unset, a production server would silently read every peer as the client and trust no proxy's
  // X-Forwarded-Proto: behind a proxy that is every caller on one address (the limits) and http links.
  else if (options.server && parsed.data.NODE_ENV === 'production' && parsed.data.TRUST_PROXY === undefined)
    lines.push(
      "  TRUST_PROXY: required with NODE_ENV=production: set it to the proxy's address (e.g. 10.0.0.5, or loopback for a proxy on this machine), or to false if nothing is in front of the portal",
    );
  if (lines.length > 0 || !parsed.success) throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  const e = parsed.data;
  const database = databaseConfigFromUrl(e.DATABASE_URL);
  const dataDir = e.DATA_DIR ?? (database.dialect === 'sqlite' ? dirname(database.path) : './data');
  const production = e.NODE_ENV === 'production';
  if (e.SSO_SECRET_KEY !== undefined) useConfiguredSecretKey(dataDir, e.SSO_SECRET_KEY);
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    database,
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxHours: e.SESSION_MAX_HOURS },
    limits: {
      perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perAccountPerDay: e.LOGIN_MAX_FAILURES_PER_ACCOUNT_PER_DAY,
      perAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMinutes: e.LOGIN_THROTTLE_MINUTES,
      otsPerParticipant: e.OTS_MAX_FAILURES_PER_PARTICIPANT,
      otsWindowMinutes: e.OTS_THROTTLE_MINUTES,
    },
    logLevel: e.LOG_LEVEL,
    clientCacheSeconds: e.CLIENT_CACHE_SECONDS,
    webDist: e.WEB_DIST,
    consoleDist: e.CONSOLE_DIST,
    trustProxy: e.TRUST_PROXY ?? false,
    drainSeconds: e.DRAIN_SECONDS ?? (production ? 5 : 0),
    catalog: {
      signingKey: e.CATALOG_SIGNING_KEY,
      dataDir,
      sealingKey: e.SSO_SECRET_KEY,
      demo: production
        ? undefined
        : {
            partnerId: e.DEMO_CATALOG_PARTNER_ID ?? DEMO_CATALOG_PARTNER_ID,
            partnerSecret: e.DEMO_CATALOG_PARTNER_SECRET ?? DEMO_CATALOG_PARTNER_SECRET,
            portalUrl: e.DEMO_CATALOG_PORTAL_URL,
          },
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      outboxDir: join(dataDir, 'outbox'),
      linksInLog: !production,
    },
    account: { resetLinkMinutes: e.RESET_LINK_MINUTES },
    console: { origin: e.CONSOLE_ORIGIN, hostname: new URL(e.CONSOLE_ORIGIN).hostname.toLowerCase() },
    staffSignIn: {
      password: e.STAFF_PASSWORD_SIGN_IN === 'on',
      oidc:
        e.STAFF_OIDC_ISSUER && e.STAFF_OIDC_CLIENT_ID && e.STAFF_OIDC_CLIENT_SECRET
          ? {
              issuer: e.STAFF_OIDC_ISSUER,
              clientId: e.STAFF_OIDC_CLIENT_ID,
              clientSecret: e.STAFF_OIDC_CLIENT_SECRET,
              name: e.STAFF_OIDC_NAME,
              mfaAcr: e.STAFF_OIDC_MFA_ACR,
            }
          : undefined,
    },
    metrics: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    webhooks: {
      allowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK === undefined ? !production : e.WEBHOOKS_ALLOW_LOOPBACK === 'on',
    },
    passwordHashCost: e.PASSWORD_HASH_COST === 'owasp' ? OWASP_MINIMUM : TEST_ONLY_MINIMUM,
  };
}

/**
 * What the start-up line says: the engine and where (PostgreSQL's host and database name only,
 * never its user or password), the origins, the proxy trust, metrics, mail transport and drain.
 */
export function describeSettings(config: Config, metricsAddress?: string): string {
  const database =
    config.database.dialect === 'sqlite' ? `SQLite ${config.database.path}` : `PostgreSQL ${postgresWhere(config.database.url)}`;
  const trust =
    config.trustProxy === false
      ? 'none'
      : typeof config.trustProxy === 'number'
        ? `${config.trustProxy} hop${config.trustProxy === 1 ? '' : 's'}`
        : config.trustProxy.join(',');
  const mail = config.mail.smtpUrl ? `SMTP ${smtpWhere(config.mail.smtpUrl)}` : `.eml files in ${config.mail.outboxDir}`;
  return [
    config.production ? 'production' : 'development',
    `database ${database}`,
    `console ${config.console.origin}/console/`,
    `proxy trust ${trust}`,
    `metrics ${metricsAddress ? `${metricsAddress}/metrics` : 'off'}`,
    `mail ${mail}`,
    `drain ${config.drainSeconds} s`,
  ].join('; ');
}

function postgresWhere(url: string): string {
  try {
    const parsed = new URL(url);
    // A socket directory may come as ?host=/path instead of in the authority.
    const host = parsed.host || parsed.searchParams.get('host') || 'localhost';
    return `${host}/${decodeURIComponent(parsed.pathname.slice(1)) || '(default database)'}`;
  } catch {
    return '(address not shown)';
  }
}

function smtpWhere(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(address not shown)';
  }
}
