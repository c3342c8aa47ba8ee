import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, 'must start with file: or postgres://')
    .default('file:./data/rewards.db'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  LOGIN_THROTTLE_MINUTES: z.coerce.number().int().min(1).default(15),
  OTS_MAX_FAILURES_PER_PARTICIPANT: z.coerce.number().int().min(1).default(10),
  OTS_THROTTLE_MINUTES: z.coerce.number().int().min(1).default(15),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: flag.default(false),
});

export type DatabaseConfig =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  session: { idleMinutes: number; maxHours: number };
  loginThrottle: { maxPerAccount: number; maxPerAddress: number; windowMinutes: number };
  /** Failed on-the-spot redeems per participant over a sliding window (codes can be guessed). */
  otsThrottle: { maxPerParticipant: number; windowMinutes: number };
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Folder of the built web app; undefined serves the API only (tests). */
  webDist: string | undefined;
  trustProxy: boolean;
}

export function databaseConfigFromUrl(url: string): DatabaseConfig {
  if (url.startsWith('file:')) return { dialect: 'sqlite', path: url.slice('file:'.length) };
  return { dialect: 'postgres', url };
}

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: databaseConfigFromUrl(e.DATABASE_URL),
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxHours: e.SESSION_MAX_HOURS },
    loginThrottle: {
      maxPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMinutes: e.LOGIN_THROTTLE_MINUTES,
    },
    otsThrottle: { maxPerParticipant: e.OTS_MAX_FAILURES_PER_PARTICIPANT, windowMinutes: e.OTS_THROTTLE_MINUTES },
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY,
  };
}
